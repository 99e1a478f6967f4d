// tailgate migrate shows, before the numbers, the knobs of today's tuning the candidate
// cannot express (plan/knob-gaps.js, from the catalog's controller.yaml knobs).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBench } from '../../src/config/load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { knobGapLines, knobGaps } from '../../src/plan/knob-gaps.js';
import { migrationMarkdown } from '../../src/report/migration.js';
import { planSteps } from '../../src/targets/kube/steps/layout.js';
import { kubeContext } from '../../src/targets/kube/context.js';

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

test('examples/migration: ingress-nginx → Traefik through Gateway API renders in one cluster (an Ingress for ingress-nginx, an HTTPRoute for the candidate), its gaps listed first', () => {
  const cfg = loadBench(join(import.meta.dirname, '..', '..', '..', 'examples', 'migration', 'bench.yaml'));
  const plan = planMatrix(cfg, 'migration', { abHead: 'traefik-gateway:tuned', alternate: true, tunings: ['tuned'] });
  assert.deepEqual(
    knobGaps(cfg, plan).map((g) => g.knob),
    ['keepaliveRequests', 'upstreamKeepalive', 'workerConnections'],
    'backlog lands on both; the rest only on one side',
  );
  // Online: the plan names each chart by its repository (ingress-nginx runs on GitHub's runners).
  const s = planSteps(plan, kubeContext({ target: 'kind', runId: 'x', runDir: '/tmp/r', env: {} }));
  const backend = s.find((x) => /^install the backend chart/.test(x.title)).argv.join(' ');
  assert.match(backend, /ingress\.className=nginx .*httpRoute\.extraGateways\[0\]\.name=traefik-gateway-b/);
  assert.ok(s.some((x) => /install the head traefik-gateway-b/.test(x.title)));
});
