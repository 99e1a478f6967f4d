import { EXIT, InputError } from '../errors.js';
import { ingest } from '../ingest/ingest.js';
import { readJsonFile } from '../result/read.js';
import { writeJsonAtomic } from '../result/write.js';
import { NAME } from '../names.js';
import { FORMATS, sniffFormat, toolClaims } from '../ingest/formats.js';
import { chunksOf } from '../engines/open.js';
import { didYouMean } from '../nearest.js';

export const summary = 'k6, Vegeta or fortio output -> result.json (HDR histograms, error classes, timeline)';
export const usage = `Usage: tailgate ingest <output> --out result.json [--format k6|vegeta|fortio]
                      [--summary k6-summary.json] [--events events.jsonl] [--meta meta.json]
                      [--side a|b] [--force]

  --format   what <output> is (default k6):
               k6      k6 run --out json=out.json.gz
               vegeta  vegeta attack … | vegeta encode --to json (or --to csv), .gz too:
                       every request a sample, exact
               fortio  fortio load -json out.json: buckets, not samples; the result gives
                       each quantile's bucket as its error bound (latency.source.bounds)

  --summary  k6's own summary JSON (handleSummary); its request count is cross-checked
  --events   fault events (JSON lines with ts in epoch ms) merged onto the same clock
  --meta     run metadata (controller, tuning, scenario, rate, durationMs, ...); the load
             tool is --format's: a meta naming another (a k6 run's, for vegeta) is refused
  --side     of a concurrent A/B run: only the requests of side a (base) or b (head);
             the summary cross-check then does not apply
  --force    replace an existing --out file (results are never overwritten otherwise)

Exit codes: 0 written · 2 bad input (nothing written) · 3 written, but 0 samples (inconclusive)`;
export const options = {
  out: { type: 'string' },
  format: { type: 'string', default: 'k6' },
  summary: { type: 'string' },
  events: { type: 'string' },
  meta: { type: 'string' },
  side: { type: 'string' },
  force: { type: 'boolean', default: false },
};

export async function run(opts, positionals) {
  if (positionals.length !== 1)
    throw new InputError(`expected exactly one output file, got ${positionals.length}\n\n${usage}`);
  if (!opts.out) throw new InputError('--out <result.json> is required');
  if (!Object.hasOwn(FORMATS, opts.format))
    throw new InputError(
      `--format: expected one of ${Object.keys(FORMATS).join(', ')}, got ${JSON.stringify(opts.format)}${didYouMean(opts.format, Object.keys(FORMATS))}`,
    );
  if (opts.format !== 'k6' && (opts.summary || opts.side))
    throw new InputError(
      `--summary and --side are k6's (its summary, its side tags): not with --format ${opts.format}`,
    );
  const meta = opts.meta ? checkMeta(readJsonFile(opts.meta), opts.meta, opts.format) : {};
  if (opts.side !== undefined && !['a', 'b'].includes(opts.side))
    throw new InputError(`--side: expected a or b, got ${JSON.stringify(opts.side)}`);
  if (opts.side && opts.summary)
    throw new InputError('--summary counts both sides of a concurrent run: leave it out with --side');
  const result = await ingest({
    output: positionals[0],
    format: opts.format,
    events: opts.events,
    meta,
    side: opts.side ?? null,
  }).catch(async (err) => {
    throw await otherTool(err, positionals[0], opts.format);
  });
  if (opts.summary) crossCheck(result, readJsonFile(opts.summary), opts.summary);
  writeJsonAtomic(opts.out, result, { force: opts.force });
  const p = result.latency.percentiles;
  console.log(
    `${opts.out}: ${result.requests.total} requests, ${result.errors.total} errors, p99 ${fmt(p.p99)} ms, p99.99 ${fmt(p['p99.99'])} ms, dropped ${result.load.droppedIterations}`,
  );
  if (result.requests.total === 0) {
    console.error(
      'tailgate ingest: 0 request samples in the measured phase: inconclusive (an empty k6 trend reports 0, which is not a pass)',
    );
    return EXIT.INCONCLUSIVE;
  }
  return EXIT.OK;
}

// A reader's refusal of another tool's output says which tool's it is and the flag that
// reads it, before the parser's own words.
async function otherTool(err, file, format) {
  if (!(err instanceof InputError) || !file) return err;
  let head = '';
  try {
    for await (const chunk of chunksOf(file, 'load tool output')) {
      head += chunk.toString('utf8');
      if (head.length >= 1 << 16) break;
    }
  } catch {
    return err;
  }
  const seen = sniffFormat(head.slice(0, 1 << 16));
  if (!seen || seen === format) return err;
  return new InputError(
    `${file}: this is ${FORMATS[seen].what} output, not ${FORMATS[format].what}: ingest it with --format ${seen}`,
    { details: [err.message, ...(err.details ?? [])].slice(0, 5) },
  );
}

// --meta steers ingest (rate, duration) and is copied into the result: typed here, all
// problems at once, so a bad value is named now rather than rejected by compare later.
// It may not name another load tool than --format's reader (formats.js).
function checkMeta(m, file, format) {
  if (!m || typeof m !== 'object' || Array.isArray(m)) throw new InputError(`${file}: --meta must be a JSON object`);
  const problems = [];
  const intIn = (k, lo, hi) =>
    m[k] !== undefined &&
    m[k] !== null &&
    (!Number.isInteger(m[k]) || m[k] < lo || m[k] > hi) &&
    problems.push(`${k}: expected an integer from ${lo} to ${hi}, got ${JSON.stringify(m[k])}`);
  intIn('rate', 1, 1_000_000);
  intIn('durationMs', 1000, 7 * 86_400_000);
  intIn('k6ExitCode', 0, 255);
  intIn('repetition', 1, 10_000);
  intIn('pair', 1, 10_000);
  for (const k of ['profile', 'target'])
    if (m[k] !== undefined && (typeof m[k] !== 'string' || !NAME.test(m[k])))
      problems.push(`${k}: expected a name matching ${NAME.source}`);
  for (const k of ['controller', 'tuning', 'scenario']) {
    if (m[k] === undefined) continue;
    if (!m[k] || typeof m[k] !== 'object' || (m[k].name !== undefined && !NAME.test(String(m[k].name))))
      problems.push(`${k}: expected {name: <name matching ${NAME.source}>, …}`);
  }
  problems.push(...toolClaims(format, m));
  if (problems.length) throw new InputError(`${file}: --meta has ${problems.length} problem(s)`, { details: problems });
  return m;
}

// k6 counts every phase; the raw output and its summary must agree on the total.
function crossCheck(result, summaryJson, file) {
  const k6Count = FORMATS.k6.summaryCount(summaryJson);
  if (k6Count === undefined) throw new InputError(`${file}: not a k6 summary (no metrics.http_reqs.values.count)`);
  if (k6Count !== result.wholeRun.requests) {
    throw new InputError(
      `${file}: k6 counted ${k6Count} requests but the raw output holds ${result.wholeRun.requests}: raw output truncated or from another run`,
    );
  }
}

function fmt(v) {
  return v === null ? '-' : v.toFixed(3);
}
