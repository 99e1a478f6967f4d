// What Vegeta runs for a scenario: one or more `vegeta attack` processes, one after the
// other, each named so that its results say how to read them (attack.js).
// The k6 scripts' meanings, in Vegeta's terms:
// - steady: one attack at the constant rate for warm-up + duration, so the warm-up's
//   connections carry into the measured phase as k6's VUs' do; a request scheduled before
//   the warm-up ends is the warm-up's (tagged phase=warmup, never gated).
// - sequential: one worker, one request at a time (closed loop on purpose, as k6's single
//   VU); a pause becomes at most one request per pause.
// - sweep: one attack per rate × connections step (workers and connections capped at the
//   step's connections, as k6's VUs are), 2 s apart as k6's steps.
// - saturation: the warm-up at the start rate, then the ramp to maxRate as rate steps.
// Open loop: Vegeta's pacer releases request n at n/rate after the attack began and starts
// a worker when none is free (up to maxVus), so a slow response does not hold the next one;
// what lateness remains is measured per request (ingest: latency from the scheduled send).
import { scenarioMs } from '../../config/normalise.js';

export const STEP_GAP_MS = 2000;
// Steps of a saturation ramp: enough that each holds several one-second windows at the
// default 60 s, few enough that process starts stay a small share of the run.
const RAMP_STEPS = 10;

/**
 * The attacks of a scenario (its load as the run gives it: a duet's doubled rate
 * included), for runner `segment` of several: each runner sends rate/n.
 * [{name, rate: {hits, perMs} | null, durationMs, workers, maxWorkers, connections?, gapMs}]
 */
export function attackPlan(scenario, segment = null) {
  const n = segment?.count > 1 ? segment.count : 1;
  const attack = (spec) => attackOf(spec, segment);
  const ms = scenarioMs(scenario);
  const pace = (rate) => ({ hits: rate, perMs: 1000 * n });
  const open = { workers: Math.ceil(scenario.vus / n), maxWorkers: Math.ceil(scenario.maxVus / n) };
  switch (scenario.script) {
    case 'steady':
      return [attack({ rate: pace(scenario.rate), durationMs: ms.warmup + ms.duration, warmupMs: ms.warmup, ...open })];
    case 'sequential': {
      const pauseMs = ms.pause ?? 0;
      return [
        attack({
          rate: pauseMs > 0 ? { hits: 1, perMs: pauseMs } : null,
          durationMs: ms.warmup + ms.duration,
          warmupMs: ms.warmup,
          workers: 1,
          maxWorkers: 1,
        }),
      ];
    }
    case 'sweep': {
      const out = [];
      for (const c of scenario.connections)
        for (const r of scenario.rates) {
          const k = Math.max(1, Math.ceil(c / n));
          out.push(
            attack({
              rate: pace(r),
              durationMs: ms.duration,
              warmupMs: 0,
              step: `r${r}-c${c}`,
              workers: k,
              maxWorkers: k,
              connections: k,
              gapMs: out.length ? STEP_GAP_MS : 0,
            }),
          );
        }
      return out;
    }
    case 'saturation': {
      const start = Math.max(1, Math.floor(scenario.maxRate / 10));
      const out = [];
      if (ms.warmup > 0) out.push(attack({ rate: pace(start), durationMs: ms.warmup, warmupMs: ms.warmup, ...open }));
      const steps = Math.max(1, Math.min(RAMP_STEPS, Math.floor(ms.duration / 1000)));
      for (let i = 1; i <= steps; i++) {
        const rate = Math.round(start + ((scenario.maxRate - start) * i) / steps);
        out.push(attack({ rate: pace(rate), durationMs: Math.round(ms.duration / steps), warmupMs: 0, ...open }));
      }
      return out;
    }
    default:
      throw new Error(`no Vegeta plan for script ${scenario.script}`);
  }
}

function attackOf(
  { rate, durationMs, warmupMs, step = null, workers, maxWorkers, connections = null, gapMs = 0 },
  segment,
) {
  return {
    name: attackName({ rate, warmupMs, windowMs: durationMs, step, segment }),
    rate,
    durationMs,
    workers: Math.max(1, Math.min(workers, maxWorkers)),
    maxWorkers: Math.max(1, maxWorkers),
    connections,
    gapMs,
  };
}

/**
 * The attack's name, which Vegeta writes into each of its results: how ingest reads them
 * (attack.js parses exactly this). rate: hits per perMs, from which the
 * schedule of request n follows; absent for a closed loop. window: the attack's span —
 * Vegeta checks its duration before it waits for the next tick, so it may send one request
 * due at the very end, which k6's executor never starts; ingest leaves such requests out of
 * every phase. runner: which of several attackers (each its own sequence numbers).
 */
export function attackName({ rate, warmupMs, windowMs, step, segment }) {
  const parts = ['tailgate'];
  if (rate) parts.push(`rate=${rate.hits}/${rate.perMs}ms`);
  parts.push(`warmup=${warmupMs}ms`, `window=${windowMs}ms`);
  if (step) parts.push(`step=${step}`);
  if (segment?.count > 1) parts.push(`runner=${segment.index + 1}/${segment.count}`);
  return parts.join(' ');
}

/**
 * How long Vegeta runs an attack: its window, plus two intervals when paced. Vegeta checks
 * its duration before it waits for the next tick, so a request due just inside the window
 * would go unsent whenever the engine was a little behind at the end — read as dropped.
 * What it sends after the window is left out by ingest (afterWindow).
 */
export function runMs(a) {
  return a.rate ? a.durationMs + Math.ceil((2 * a.rate.perMs) / a.rate.hits) : a.durationMs;
}

/** `vegeta attack`'s arguments for one attack (targets, output: paths). */
export function attackArgs(a, { scenario, targets, output }) {
  const args = [
    'attack',
    `-name=${a.name}`,
    '-format=json',
    `-targets=${targets}`,
    `-output=${output}`,
    `-duration=${runMs(a)}ms`,
    `-timeout=${scenarioMs(scenario).timeout}ms`,
    `-workers=${a.workers}`,
    `-max-workers=${a.maxWorkers}`,
    // k6 discards response bodies too (discardResponseBodies): read, never kept.
    '-max-body=0',
    // The proxies' test certificates are self-signed, as k6's insecureSkipTLSVerify.
    '-insecure',
  ];
  args.push(a.rate ? `-rate=${a.rate.hits}/${a.rate.perMs}ms` : '-rate=0');
  if (a.connections) args.push(`-connections=${a.connections}`, `-max-connections=${a.connections}`);
  return args;
}

/** The URL Vegeta requests on a side: the payload's path under the side's URL. */
export const targetUrl = (u, scenario) => `${u.replace(/\/$/, '')}/${scenario.payload}`;

/** Vegeta's targets file: the payload path on each side, with the Host header k6 sends. */
export function targetsText(scenario, { url, urlB, host }) {
  return [url, urlB]
    .filter(Boolean)
    .map((u) => JSON.stringify({ method: 'GET', url: targetUrl(u, scenario), header: { Host: [host] } }))
    .join('\n')
    .concat('\n');
}

/**
 * What the dry run shows for a cell: Vegeta's attacks, one after the other, as run.js runs
 * them (load: the cell's load, engines/load.js cellLoad). Its targets file names the URLs.
 */
export function vegetaShown(cell, load) {
  const cellDir = `results/<run>/${cell.id}`;
  const argv = attackPlan(load).flatMap((a, i) => [
    ...(i ? ['&&'] : []),
    'vegeta',
    ...attackArgs(a, {
      scenario: load,
      targets: `${cellDir}/vegeta-targets.json`,
      output: `${cellDir}/vegeta-${i + 1}.bin`,
    }),
  ]);
  return { argv };
}
