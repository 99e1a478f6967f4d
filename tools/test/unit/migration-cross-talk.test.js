// A migration duet between unlike proxies (compare/migration.js): the side that burns more
// CPU per request slows the other on the shared node, pulling candidate/from toward 1. A
// costlier candidate's "no worse" and a cheaper one's "worse" are not trusted as duets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrationDoc, migrationLines } from '../../src/compare/migration.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { simRep } from '../helpers/pr-sim.js';

const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const rep = (pair, errors, cpu, duet) => ({
  ...simRep({
    source: `r${pair}`,
    percentiles: { p50: 1, p90: 2, p99: 4, 'p99.9': 6, 'p99.99': 8, max: 10 },
    intervals: {},
    requests: 10_000,
    errors: { total: errors, byClass: errors ? { http503: errors } : {} },
    pair,
    t: Date.parse('2026-11-27T00:00:00Z') + pair * 60_000,
    side: duet ? 'a' : undefined,
  }),
  resources: { cpuPer1kRequests: cpu },
});
const side = (errors, cpu, duet = true) => [1, 2, 3, 4].map((p) => rep(p, errors, cpu, duet));
const doc = (base, head) =>
  migrationDoc({
    inputs: [{ cell: 'traefik/default/steady', base, head }],
    gate,
    margins: { errors: '10%' },
    from: 'traefik',
  });

test('migration duet: a candidate that burns ×1.25 the CPU is not called no worse; one that burns less is not called worse', () => {
  // No errors on the candidate: no worse — unless it is the costlier side of a duet.
  assert.equal(doc(side(5, 0.4), side(0, 0.45)).overall, 'no-worse');
  let d = doc(side(5, 0.4), side(0, 0.6));
  assert.equal(d.overall, 'inconclusive');
  assert.match(
    d.cells[0].reasons[0],
    /no-worse as a duet, but the candidate burns ×1\.5 the CPU per request .* confirm loaded one at a time/,
  );
  assert.ok(
    migrationLines(d).some((l) => /burns ×1\.5/.test(l)),
    'the terminal says why',
  );
  // Errors on the candidate only: worse — unless it is the cheaper side.
  assert.equal(doc(side(0, 0.4), side(60, 0.4)).overall, 'worse');
  d = doc(side(0, 0.66), side(60, 0.41));
  assert.equal(d.overall, 'inconclusive');
  assert.match(d.cells[0].reasons[0], /worse as a duet, but the candidate burns ×0\.62/);
  // Loaded one at a time (no duet): nothing to distrust.
  assert.equal(doc(side(5, 0.4, false), side(0, 0.6, false)).overall, 'no-worse');
});
