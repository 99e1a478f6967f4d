import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { reportTiming, timing } from '../../src/run/timing.js';
import { scratchDir } from '../helpers/scratch.js';

test('timing: seconds before the first request and the load share, from the job clock CI sets', () => {
  const t0 = 1_700_000_000_000;
  const outcomes = [
    { load: { startedAt: t0 + 150_000, endedAt: t0 + 172_000 } },
    { load: { startedAt: t0 + 180_000, endedAt: t0 + 202_000 } },
    { error: new Error('infra') },
  ];
  const t = timing(outcomes, { now: t0 + 220_000, env: { TAILGATE_JOB_STARTED: String(t0 / 1000) } });
  assert.deepEqual(t, { from: 'job start', beforeFirstRequestS: 150, loadS: 44, wallS: 220, loadShare: 20 });
  const dir = scratchDir('tg-timing-');
  const summary = join(dir, 'summary.md');
  const lines = [];
  reportTiming(t, dir, { env: { GITHUB_STEP_SUMMARY: summary }, log: (l) => lines.push(l) });
  assert.match(readFileSync(summary, 'utf8'), /150 s from job start to the first request; load 44 s of 220 s \(20%\)/);
  assert.equal(JSON.parse(readFileSync(join(dir, 'timing.json'), 'utf8')).loadShare, 20);
  assert.equal(timing([{ error: new Error('x') }]), null, 'nothing measured: no timing line');
});
