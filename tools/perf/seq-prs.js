#!/usr/bin/env node
// Sequential PRs on real pairs: a run of init-prs.js (N measured duet pairs per cell) gated
// as PRs of the sequential design — pairs fed one at a time to the runner's interim look
// (compare/sequential.js) from `repetitions` on, stopped when it decides or at
// maxRepetitions, then the gate of record on the pairs used (their meta.sequential set as
// the runner sets it). PR k takes the run's pairs from pair k on, cyclically: with fewer
// measured pairs than PRs × pairs, PRs share pairs — their outcomes are not independent,
// which the printout says.
//   node tools/perf/seq-prs.js <run dir> <controller> [--max 8] [--threshold 5%] [--cv 0.08]
//                              [--scenario steady] [--shift 1.10] [--stall-shift 1.3] [--prs 10] [--config bench.yaml]
//                              [--reingest] [--exposure-shift 1.3] [--gate-of pr-failover]
// --reingest: the pairs ingested again from the run's raw/ with this checkout's ingest
// (reingest.js), not its recorded results — what a run recorded before a change to the
// ingest (the per-kill exposure, issue 66) gives now. --exposure-shift 1.3: re-ingested
// with each kill's exposure on the head 30% longer, laid on the raw requests (reingest.js):
// the failover test's own measure, and what it does to p99 and errors with it.
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { readFileSync } from 'node:fs';
import { gateCells } from '../src/compare/gate.js';
import { FAILOVER_METRIC } from '../src/compare/failover.js';
import { familyBound, interimLook } from '../src/compare/sequential.js';
import { parseBench } from '../src/config/load.js';
import { pairsByScenario, prOutcome } from './init-prs.js';
import { reingestPairs } from './reingest.js';

export function seqPrs(
  dir,
  controller,
  {
    max = 8,
    threshold = null,
    cv = null,
    scenario = null,
    shift = 1,
    stallShift = 1,
    prs = 10,
    config = join(dir, 'bench.yaml'),
    pairs: given = null,
    gateOf = null,
  } = {},
) {
  const doc = parse(readFileSync(config, 'utf8'));
  const m = doc.matrices.pr;
  const min = 3;
  m.repetitions = min;
  m.maxRepetitions = max;
  // --gate-of pr-failover: the gate of the matrix a PR runs this scenario in (init: the
  // pod-kill cell is pr-failover's), not the recorded pr matrix's (steady pr's, p99 at 5%).
  if (gateOf) {
    if (!doc.matrices[gateOf]) throw new Error(`--gate-of ${gateOf}: no such matrix in ${config}`);
    if (doc.matrices[gateOf].gate) m.gate = doc.matrices[gateOf].gate;
    else delete m.gate;
  }
  if (threshold) m.gate = { ...m.gate, latency: { ...m.gate?.latency, p99: { threshold } } };
  if (cv) m.gate = { ...m.gate, assumedDuetCv: cv };
  const cfg = parseBench(stringify(doc), config);
  const gate = cfg.matrices.pr.gate ?? cfg.gate;
  // --scenario: one cell alone, as a gate of its own (init: pr steady, pr-failover pod-kill).
  const byScenario = Object.fromEntries(
    Object.entries(given ?? pairsByScenario(dir, controller)).filter(([s]) => !scenario || s === scenario),
  );
  const family = familyBound(
    Object.keys(byScenario).map((s) => ({ key: `${controller}/default/${s}`, scenario: cfg.scenarios[s] })),
    gate,
  );
  const sequential = { minPairs: min, maxPairs: max };
  // Numbered as this PR's runner would number them (the gate reads the last repetition).
  const mark = (r, i) => ({ ...r, meta: { ...r.meta, sequential, repetition: i + 1 } });
  // --shift 1.10: a change of exactly that size laid on real A/A pairs — every quantile of
  // the head (and its interval) times the factor; the noise stays what was measured.
  const scale = (o) => Object.fromEntries(Object.entries(o ?? {}).map(([k, v]) => [k, v * shift]));
  // --stall-shift 1.3: each kill's stall on the head times the factor (p99 and errors stay
  // as measured). The failover test gated the stall until issue 66; it gates the exposure
  // now, which this leaves as it was: --exposure-shift is the change to lay on.
  const stalled = (r) =>
    stallShift === 1 || !r.faultCost?.perAction
      ? r
      : {
          ...r,
          faultCost: {
            ...r.faultCost,
            perAction: r.faultCost.perAction.map((a) => ({ ...a, stallMs: a.stallMs * stallShift })),
          },
        };
  const shifted = (r) =>
    shift === 1
      ? stalled(r)
      : {
          ...stalled(r),
          percentiles: scale(r.percentiles),
          intervals: Object.fromEntries(
            Object.entries(r.intervals ?? {}).map(([k, iv]) => [
              k,
              { ...iv, low: iv.low * shift, high: iv.high * shift },
            ]),
          ),
        };
  const out = { pass: 0, inconclusive: 0, fail: 0, pairs: {}, prs: [] };
  for (let k = 0; k < prs; k++) {
    const cells = [];
    const used = {};
    for (const [s, pairs] of Object.entries(byScenario)) {
      const take = (n) =>
        Array.from({ length: n }, (_, j) => pairs[(k + j) % pairs.length]).map(([b, h]) => [b, shifted(h)]);
      let n = min;
      for (; n < max; n++) {
        const ps = take(n);
        const look = interimLook({ base: ps.map(([b]) => b), head: ps.map(([, h]) => h) }, gate, { family });
        if (look.decision !== 'continue') break;
      }
      const ps = take(n);
      used[s] = n;
      cells.push({
        cell: `${controller}/default/${s}`,
        base: ps.map(([b], i) => mark(b, i)),
        head: ps.map(([, h], i) => mark(h, i)),
      });
    }
    const v = gateCells(cells, gate, { mode: 'paired' });
    const outcome = prOutcome(v);
    out[outcome]++;
    for (const [s, n] of Object.entries(used)) (out.pairs[s] ??= []).push(n);
    out.prs.push({
      pr: k + 1,
      outcome,
      cells: v.cells.map((c) => ({
        cell: c.cell,
        verdict: c.verdict,
        pairs: used[c.cell.split('/')[2]],
        p99: c.metrics?.find((x) => x.metric === 'p99')?.ratio,
        sees: c.metrics?.find((x) => x.metric === 'p99')?.detectable?.ratio80 ?? null,
        failover: c.metrics?.find((x) => x.metric === FAILOVER_METRIC)?.status ?? null,
        failoverRatio: c.metrics?.find((x) => x.metric === FAILOVER_METRIC)?.ratio ?? null,
        failoverP: c.metrics?.find((x) => x.metric === FAILOVER_METRIC)?.p ?? null,
        failoverSees: c.metrics?.find((x) => x.metric === FAILOVER_METRIC)?.detectable?.ratio80 ?? null,
        reasons: c.verdict === 'pass' ? undefined : c.reasons,
      })),
    });
  }
  const measured = Math.min(...Object.values(byScenario).map((p) => p.length));
  out.note = `${prs} PRs from ${measured} measured pairs per cell: PRs share pairs (not independent)`;
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, controller, ...rest] = process.argv.slice(2);
  const flag = (n) => (rest.includes(n) ? rest[rest.indexOf(n) + 1] : null);
  const exposureShift = Number(flag('--exposure-shift') ?? 1);
  const pairs =
    rest.includes('--reingest') || exposureShift !== 1
      ? await reingestPairs(dir, controller, { scenario: flag('--scenario'), exposureShift })
      : null;
  const r = seqPrs(dir, controller, {
    pairs,
    max: Number(flag('--max') ?? 8),
    threshold: flag('--threshold'),
    cv: flag('--cv') ? Number(flag('--cv')) : null,
    scenario: flag('--scenario'),
    shift: Number(flag('--shift') ?? 1),
    stallShift: Number(flag('--stall-shift') ?? 1),
    config: flag('--config') ?? undefined,
    prs: Number(flag('--prs') ?? 10),
    gateOf: flag('--gate-of'),
  });
  console.log(JSON.stringify(r, null, 1));
}
