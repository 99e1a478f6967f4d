// Reads what the gate compares — result files (one repetition each) or baseline
// files (several) — and refuses anything inconsistent: a wrong schema version, a
// histogram that does not decode, counts that disagree with the histogram.
import { workloadOf } from './workload.js';
import { schemaProblems } from '../schema.js';
import { InputError } from '../errors.js';
import { decode, valueAtMs } from './histogram.js';
import { QUANTILES, quantileInterval, summarize } from './quantiles.js';
import { readJsonFile } from './read.js';

export { readJsonFile };

/** A result or baseline document -> {kind, reps: [...], doc}. */
export function toReps(doc, file) {
  if (doc?.kind === 'tailgate.baseline') return { kind: 'baseline', doc, reps: baselineReps(doc, file) };
  if (doc?.kind === 'tailgate.result') return { kind: 'result', doc, reps: [resultRep(doc, file)] };
  throw new InputError(`${file}: not a tailgate result or baseline (kind is ${JSON.stringify(doc?.kind)})`);
}

function checkSchema(name, doc, file, version) {
  if (doc.schemaVersion !== version) {
    throw new InputError(
      `${file}: schemaVersion ${JSON.stringify(doc.schemaVersion)} is not supported (this tailgate reads ${version}); re-create it with \`tailgate ${name === 'baseline' ? 'baseline update' : 'ingest'}\``,
    );
  }
  // JSON numbers beyond a double's range parse as Infinity; a schema's "number" takes it.
  const problems = [...nonFinite(doc), ...schemaProblems(name, doc)];
  if (problems.length) {
    throw new InputError(`${file}: does not match schemas/${name}.schema.json`, {
      details: problems.map((p) => `${p.path.join('.') || '(top)'}: ${p.message}`),
    });
  }
}

function nonFinite(doc) {
  const out = [];
  const walk = (x, path) => {
    if (out.length >= 20) return;
    if (typeof x === 'number' && !Number.isFinite(x)) out.push({ path, message: 'must be a finite number' });
    else if (x && typeof x === 'object')
      for (const [k, v] of Object.entries(x)) walk(v, [...path, Array.isArray(x) ? Number(k) : k]);
  };
  walk(doc, []);
  return out;
}

export function resultRep(doc, file) {
  const hist = checked(doc, file);
  // Quantiles and their intervals come from the histogram, never from the fields a
  // file claims: an edited interval or `reliable` flag cannot move the verdict.
  const derived = summarize(hist, 0.95);
  return {
    source: file,
    percentiles: { ...derived.percentiles, max: doc.latency.percentiles.max ?? derived.percentiles.max },
    meanMs: derived.mean,
    intervals: derived.intervals,
    requests: doc.requests,
    errors: doc.errors,
    load: doc.load,
    meta: doc.meta,
    histogram: doc.latency.histogram,
    resources: doc.resources ?? null,
    timeline: doc.timeline,
    events: doc.events ?? [],
    faultCost: doc.faultCost ?? null,
    routes: doc.routes ? routesRep(doc.routes, file) : null,
    carried: doc.carried ?? null,
  };
}

/** resultRep's refusals, in its order, without the summary it derives: ingest's check of
 *  the result it is about to write, whose summary it has just made. */
export function checkResult(doc, file) {
  checked(doc, file);
  if (doc.routes) routesRep(doc.routes, file);
}

// The result's schema, then its histogram against its counts and percentiles; the
// decoded histogram.
function checked(doc, file) {
  checkSchema('result', doc, file, 1);
  const hist = decodeOrThrow(doc.latency.histogram, file, 'latency.histogram');
  if (hist.totalCount !== doc.latency.count || doc.latency.count !== doc.requests.total) {
    throw new InputError(
      `${file}: inconsistent counts: histogram holds ${hist.totalCount} samples, latency.count ${doc.latency.count}, requests.total ${doc.requests.total} (edited by hand?)`,
    );
  }
  const byClass = Object.values(doc.errors.byClass).reduce((a, b) => a + b, 0);
  if (byClass !== doc.errors.total)
    throw new InputError(`${file}: errors.total ${doc.errors.total} is not the sum of errors.byClass (${byClass})`);
  checkPercentiles(hist, doc.latency.percentiles, file);
  return hist;
}

function baselineReps(doc, file) {
  checkSchema('baseline', doc, file, 1);
  const merged = decodeOrThrow(doc.merged.histogram, file, 'merged.histogram');
  const total = doc.repetitions.reduce((a, r) => a + r.requests.total, 0);
  if (merged.totalCount !== total || doc.merged.requests !== total) {
    throw new InputError(
      `${file}: inconsistent counts: merged histogram holds ${merged.totalCount}, merged.requests ${doc.merged.requests}, repetitions sum to ${total}`,
    );
  }
  return doc.repetitions.map((r, i) => ({
    ...r,
    source: `${file}#rep${i + 1}`,
    meta: {
      ...r.meta,
      profile: doc.profile,
      machine: doc.provenance.machine,
      controller: { name: doc.cell.controller },
      tuning: { name: doc.cell.tuning },
      scenario: { name: doc.cell.scenario },
      // What the baseline measured, so a run of another load is not compared with it as
      // like with like: recorded since provenance.workload; before, from the scenario and
      // k6 version provenance kept. (Without it every baseline rep had an empty workload
      // and a run at a lower rate or without its faults passed against it.)
      workload:
        doc.provenance.workload ?? workloadOf({ meta: { scenario: doc.provenance.scenario, k6: doc.provenance.k6 } }),
    },
  }));
}

// The route faults' edits: their quantiles and intervals from the histogram (the gate's
// input, compare/propagation.js), as for latency; a result from before the histogram
// was kept has the quantiles of the routes added and no interval.
export const EDIT_QUANTILES = Object.freeze(['p50', 'p90', 'p99']);
export function routesRep(routes, file) {
  if (!routes.histogram) return { ...routes, quantiles: null, intervals: null, timedEdits: routes.ready };
  const h = decodeOrThrow(routes.histogram, file, 'routes.histogram');
  const { histogram, ...rest } = routes;
  const intervals = {};
  const quantiles = {};
  for (const name of EDIT_QUANTILES) {
    quantiles[name] = valueAtMs(h, QUANTILES[name]);
    intervals[name] = quantileInterval(h, QUANTILES[name]);
  }
  return { ...rest, quantiles, intervals, timedEdits: h.totalCount };
}

function decodeOrThrow(b64, file, field) {
  try {
    const h = decode(b64);
    if (!Number.isFinite(h.totalCount)) throw new Error('no count');
    return h;
  } catch (err) {
    throw new InputError(`${file}: ${field} is not a valid compressed HDR histogram (${err.message})`);
  }
}

// A percentile edited by hand no longer matches the histogram it claims to summarize.
function checkPercentiles(hist, percentiles, file) {
  if (hist.totalCount === 0) return;
  for (const [name, pct] of Object.entries(QUANTILES)) {
    const expect = valueAtMs(hist, pct);
    if (percentiles[name] === undefined) continue;
    if (typeof percentiles[name] !== 'number' || Math.abs(expect - percentiles[name]) > expect * 0.002 + 0.001) {
      throw new InputError(
        `${file}: latency.percentiles.${name} is ${percentiles[name]} but the histogram says ${expect} (edited by hand?)`,
      );
    }
  }
}
