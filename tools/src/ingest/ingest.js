// A load tool's output (+ optional events and run metadata) -> a result object (schema v1).
import { FORMATS, toolClaims, workloadOfRecord } from './formats.js';
import { AGGREGATE_LIMITS, Aggregate } from './aggregate.js';
import { checkEventTimes, readEvents } from './events.js';
import { faultCost } from './fault-cost.js';
import { carriedCost, routeCost } from './route-cost.js';
import { encode } from '../result/histogram.js';
import { machineInfo } from '../result/machine.js';
import { RESULT_SCHEMA_VERSION, TAILGATE_VERSION } from '../version.js';
import { round } from '../numbers.js';
import { InputError } from '../errors.js';
import { checkResult } from '../result/load.js';
import { MAX_JSON_BYTES } from '../result/read.js';

// side: of a concurrent A/B run, only the requests the load generator tagged side=<side>
// ("a" base, "b" head). Dropped iterations cannot be told apart and count for both sides.
// output may be a list: the outputs of several runners (execution segments of one
// scenario) folded into one aggregate — HDR histograms add exactly, so the merged
// quantiles are those of the union of the samples. Returns the per-file counts in
// `perFile` for the completeness check.
export async function ingest({
  output,
  format = 'k6',
  events: eventsFile,
  meta = {},
  confidence = 0.95,
  side = null,
  sides = null,
  perFile = null,
}) {
  const files = Array.isArray(output) ? output : [output];
  if (!Object.hasOwn(FORMATS, format))
    throw new InputError(`format: expected one of ${Object.keys(FORMATS).join(', ')}, got ${JSON.stringify(format)}`);
  const claims = toolClaims(format, meta);
  if (claims.length) throw new InputError(`meta: ${claims.length} problem(s)`, { details: claims });
  const { agg, read } = await aggregate(files, FORMATS[format], { side, sides, perFile });
  // What the tool itself says of the run (fortio: rate, duration); --meta has the last
  // word, except on which tool ran: that is the reader's, named in every result's workload
  // record (formats.js workloadOfRecord).
  meta = { ...read.meta, ...meta };
  meta.workload = workloadOfRecord(format, meta);
  const measured = agg.measured();
  const summary = measured.latency(confidence);
  const timeline = agg.timeline();
  const events = eventsFile ? placeEvents(readEvents(eventsFile), timeline, agg, eventsFile) : [];
  const dropped = agg.dropped.get('measure') ?? [...agg.dropped.values()].reduce((a, b) => a + b, 0);
  const measuredSeconds = meta.durationMs ? meta.durationMs / 1000 : measuredSpan(timeline);

  const result = {
    schemaVersion: RESULT_SCHEMA_VERSION,
    kind: 'tailgate.result',
    meta: {
      tailgate: TAILGATE_VERSION,
      machine: meta.machine ?? machineInfo(),
      ...withoutRunOnly(meta),
      ingestedAt: new Date().toISOString(),
    },
    requests: { total: measured.requests },
    errors: { total: measured.errorsTotal(), byClass: { ...measured.errors } },
    latency: {
      unit: 'ms',
      count: summary.count,
      mean: summary.mean,
      percentiles: summary.percentiles,
      intervals: summary.intervals,
      confidence,
      histogram: encode(measured.hist),
      ...(read.source ? { source: read.source } : {}),
    },
    load: loadRecord(meta, measured.requests, dropped, measuredSeconds),
    wholeRun: agg.wholeRun(confidence),
    phases: agg.phaseSummaries(confidence),
    // A tool that keeps no per-request times (fortio) has no timeline to draw.
    timeline: read.timeline === false ? [] : timeline,
    events,
  };
  // Each action's errors only when every failed request's time was kept (aggregate.js).
  const lag = { requests: agg.lag, cutMs: AGGREGATE_LIMITS.lagMs, complete: agg.lagAll };
  const cost = faultCost(events, agg.slow, result.errors.total, agg.failedAll ? agg.failed : null, lag);
  if (cost) result.faultCost = cost;
  // A duet's side: its own routes only (the events file holds both sides').
  const routes = routeCost(events, side ? (meta.ab?.role ?? null) : null);
  if (routes) result.routes = routes;
  const carried = carriedCost(events, side ? (meta.ab?.role ?? null) : null);
  if (carried) result.carried = carried;
  const steps = agg.stepSummaries(confidence);
  if (Object.keys(steps).length) result.steps = steps;
  if (meta.slo) result.saturation = saturation(timeline, meta.slo);
  return readable(result, files[0]);
}

// Every file's requests (of one side, for a duet) in one aggregate; the last file's own
// words on the run (read.meta, read.source).
async function aggregate(files, reader, { side, sides, perFile }) {
  const agg = new Aggregate(files.length > 1 ? { graceS: Infinity } : {});
  let read = {};
  for (const file of files) {
    let n = 0;
    const add = (s) => {
      n++;
      agg.addRequest(s);
    };
    const addMany = (s, k) => {
      n += k;
      agg.addRequests(s, k);
    };
    // Called once per request: a duet's side filter only where there is one.
    read = await reader.read(file, {
      onRequest: side ? (s) => s.side === side && add(s) : add,
      // k requests alike (fortio's buckets): one call, so no count a file claims sets the work.
      onRequests: side ? (s, k) => s.side === side && addMany(s, k) : addMany,
      onDropped: (d) => agg.addDropped(d),
      // A duet on an engine whose output names targets, not sides (Vegeta): which is which.
      ...(sides ? { sides } : {}),
    });
    perFile?.push({ file, requests: n });
  }
  return { agg, read };
}

// What the load generator delivered against what it was asked (compare/validity.js).
function loadRecord(meta, requests, dropped, measuredSeconds) {
  const achievedRate = measuredSeconds > 0 ? requests / measuredSeconds : 0;
  return {
    targetRate: meta.rate ?? null,
    achievedRate: round(achievedRate, 2),
    achievedRatio: meta.rate ? round(achievedRate / meta.rate, 4) : null,
    droppedIterations: dropped,
    droppedRatio: round(dropped / Math.max(1, requests + dropped), 6),
    measuredSeconds: round(measuredSeconds, 3),
    k6ExitCode: meta.k6ExitCode ?? null,
  };
}

// Ingest never writes a result that compare would refuse: the same reader checks it.
function readable(result, file) {
  const bytes = JSON.stringify(result, null, 1).length;
  if (bytes > MAX_JSON_BYTES)
    throw new InputError(`${file}: the result would be ${bytes} bytes, over the ${MAX_JSON_BYTES} readers accept`);
  try {
    checkResult(result, 'the result');
  } catch (err) {
    throw new InputError(`${file}: would make a result compare refuses (${err.message})`, { details: err.details });
  }
  return result;
}

// The run writes some fields (durationMs, slo) only to steer ingest; they are
// already represented in `load` and `saturation`.
function withoutRunOnly(meta) {
  const { durationMs, slo, machine, k6ExitCode, ...rest } = meta;
  return { ...rest, durationMs: durationMs ?? null };
}

function placeEvents(events, timeline, agg, file) {
  if (!timeline.length) return events.map((e) => ({ ...e, t: null }));
  checkEventTimes(events, agg.firstTs, agg.lastTs, file);
  const t0 = timeline[0].epoch * 1000;
  return events.map((e) => ({ ...e, t: round((e.ts - t0) / 1000, 3) })).sort((a, b) => a.ts - b.ts);
}

function measuredSpan(timeline) {
  const rows = timeline.filter((r) => r.phase === 'measure');
  return rows.length ? rows.length : timeline.length;
}

// Highest per-second request rate whose window met the SLO and error budget with
// no dropped iterations: the max sustainable rate of the saturation scenario.
function saturation(timeline, slo) {
  let best = null;
  for (const r of timeline) {
    if (r.phase !== 'measure' || !r.requests) continue;
    const ok =
      (slo.p99Ms === undefined || r.p99 <= slo.p99Ms) &&
      r.errors / r.requests <= (slo.errorRate ?? 0.01) &&
      r.dropped === 0;
    if (ok && (best === null || r.requests > best.rate)) best = { rate: r.requests, t: r.t, p99: r.p99 };
  }
  return { slo, maxSustainableRate: best?.rate ?? 0, at: best };
}
