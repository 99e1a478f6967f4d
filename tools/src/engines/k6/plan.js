// What k6 runs for a scenario: one of the scenario scripts in the top-level k6/ folder
// (k6/scenarios/<script>.js, their shared code in k6/lib/), the scenario's knobs as
// environment variables, raw output gzipped next to k6's own summary. The one builder of
// k6's command: the runner (run.js), the in-cluster Job (job.js) and the dry run all use it.
import { join } from 'node:path';
import { ROOT } from '../../exec/tools.js';

/** The scripts' folder: k6 runs k6/scenarios/<script>.js, which imports k6/lib/. */
export const SCRIPTS = join(ROOT, 'k6');

export function k6Env(scenario, { url, urlB, host = 'bench.local', summary }) {
  const env = {
    TG_TARGET_URL: url,
    // Concurrent A/B: requests alternate between the two, tagged side=a / side=b.
    ...(urlB ? { TG_TARGET_URL_B: urlB } : {}),
    TG_HOST: host,
    TG_PAYLOAD: scenario.payload,
    TG_DURATION: scenario.duration,
    TG_WARMUP: scenario.warmup,
    TG_VUS: String(scenario.vus),
    TG_MAX_VUS: String(scenario.maxVus),
    TG_TIMEOUT: scenario.timeout,
    TG_SUMMARY: summary,
  };
  if (scenario.rate) env.TG_RATE = String(scenario.rate);
  if (scenario.maxRate) env.TG_MAX_RATE = String(scenario.maxRate);
  if (scenario.rates) env.TG_RATES = scenario.rates.join(',');
  if (scenario.connections) env.TG_CONNECTIONS = scenario.connections.join(',');
  if (scenario.pause) env.TG_PAUSE = scenario.pause;
  return env;
}

// Runner i of n (execution segments): k6 splits one scenario so that the runners
// together deliver exactly the configured rate — the mechanism k6-operator uses.
export function segmentArgs(segment) {
  if (!segment || segment.count < 2) return [];
  const { index: i, count: n } = segment;
  const frac = (k) => (k === 0 ? '0' : k === n ? '1' : `${k}/${n}`);
  const sequence = Array.from({ length: n + 1 }, (_, k) => frac(k)).join(',');
  return ['--execution-segment', `${frac(i)}:${frac(i + 1)}`, '--execution-segment-sequence', sequence];
}

/** Files of one k6 run in a cell folder; runner i of several gets its own. */
export function k6Files(cellDir, segment) {
  const tag = segment && segment.count > 1 ? `-r${segment.index + 1}` : '';
  return {
    output: join(cellDir, `k6${tag}.json.gz`),
    summary: join(cellDir, `k6-summary${tag}.json`),
    log: join(cellDir, `k6${tag}.log`),
  };
}

export function k6Args(scenario, cellDir, segment = null) {
  return [
    'run',
    '--quiet',
    '--no-color',
    '--no-usage-report',
    ...segmentArgs(segment),
    '--out',
    `json=${k6Files(cellDir, segment).output}`,
    join(SCRIPTS, 'scenarios', `${scenario.script}.js`),
  ];
}

/**
 * What the dry run shows for a cell (the very command run.js executes, same builder):
 * argv and env, the results folder and script path as the caller writes them (rel).
 * load: the cell's load (engines/load.js cellLoad); urlB: null unless both sides at once.
 */
export function k6Shown(cell, load, { url, urlB, rel }) {
  const cellDir = `results/<run>/${cell.id}`;
  return {
    argv: ['k6', ...k6Args(cell.scenario, cellDir).map((a) => (a.startsWith(ROOT) ? rel(a) : a))],
    env: k6Env(load, { url, urlB, host: 'bench.local', summary: `${cellDir}/k6-summary.json` }),
  };
}
