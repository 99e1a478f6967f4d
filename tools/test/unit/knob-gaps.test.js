// tailgate migrate shows, before the numbers, the knobs of today's tuning the candidate
// cannot express (plan/knob-gaps.js, from the catalog's controller.yaml knobs).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBench } from '../../src/config/load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { knobGapLines, knobGaps } from '../../src/plan/knob-gaps.js';
import { migrationMarkdown } from '../../src/report/migration.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'kind', 'bench.yaml');

test('knob gaps: Traefik → haproxy-ingress under "tuned" — a knob only one side applies is listed, one both apply alike is not', () => {
  const cfg = loadBench(FIXTURE);
  const plan = planMatrix(cfg, 'e2e-migration', {
    abHead: 'haproxy-ingress:tuned',
    alternate: true,
    tunings: ['tuned'],
  });
  const gaps = knobGaps(cfg, plan);
  assert.deepEqual(
    gaps.map((g) => [g.knob, g.from.applied, g.candidate.applied]),
    [
      ['upstreamKeepalive', true, false], // Traefik: --serversTransport.maxIdleConnsPerHost; HAProxy reuses by default
      ['workerConnections', false, true], // Traefik has no limit; haproxy-ingress caps max-connections at 8192
    ],
  );
  assert.match(gaps[1].candidate.why, /file descriptors/);
  const lines = knobGapLines(gaps);
  assert.match(lines[0], /What the candidate cannot express as configured today \(2 knobs/);
  assert.match(
    lines[1],
    /tuned: upstreamKeepalive 320 — traefik sets 320; haproxy-ingress does not set it \(HAProxy reuses/,
  );
  // keepaliveRequests: neither applies it; backlog: both set 32768 — no gap.
  assert.ok(!lines.some((l) => /keepaliveRequests|backlog/.test(l)));
  // The candidate on another tuning than today's: what that tuning leaves out is a gap too.
  const other = knobGaps(
    cfg,
    planMatrix(cfg, 'e2e-migration', { abHead: 'haproxy-ingress:failover', alternate: true, tunings: ['tuned'] }),
  );
  assert.ok(other.some((g) => g.knob === 'backlog' && /not set by tuning "failover"/.test(g.candidate.why)));
  // The default tuning sets no knob: nothing to list.
  assert.deepEqual(knobGaps(cfg, planMatrix(cfg, 'e2e-migration', { abHead: 'haproxy-ingress', alternate: true })), []);
});

test('knob gaps in migration.md: above the table, every value escaped (the document may come from an artifact)', () => {
  const doc = {
    from: 'traefik',
    overall: 'inconclusive',
    margins: { p99: '10%' },
    table: { candidates: ['haproxy-ingress'], rows: ['tuned/steady'] },
    cells: [{ cell: 'haproxy-ingress/tuned/steady', verdict: 'inconclusive', metrics: [] }],
    gaps: [
      {
        tuning: 'tuned',
        candidateTuning: 'tuned',
        knob: 'upstreamKeepalive',
        value: 320,
        from: { controller: 'traefik', applied: true, value: 320 },
        candidate: { controller: 'haproxy-ingress', applied: false, why: '<img src=x> @team | [x](https://evil)' },
      },
    ],
  };
  const text = migrationMarkdown(doc);
  assert.ok(text.indexOf('cannot express') < text.indexOf('| scenario (vs traefik)'), 'the gaps before the numbers');
  assert.match(text, /\| tuned \| upstreamKeepalive = 320 \| sets 320 \| does not set it \(&lt;img/);
  assert.doesNotMatch(text, /<img|@team|\]\(https:\/\/evil/);
});
