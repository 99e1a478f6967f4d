// The load tools whose output `tailgate ingest --format` reads: one reader each, all
// handing request samples to the same aggregate (ingest.js). Every load engine's reader
// (engines/index.js: its format is its name), and tools tailgate only reads (fortio). A
// read-only tool is its reader file and its entry here; every tool also needs its name in
// schemas/result.schema.json's latency.source.tool (schema-registries.test.js), in
// `tailgate ingest`'s usage and docs/cli.md, and a fixture of its output
// (tools/test/unit/reader-contract.test.js).
//
// A reader's contract, which reader-contract.test.js runs over every entry with its
// fixture (tools/test/fixtures/readers/<format>.*):
// - read(file, {onRequest, onRequests, onDropped}) hands over every request as
//   {ts: epoch ms of its end, ms: its latency, status: the HTTP code as digits ('0': none),
//   error?: the tool's words, sent?: epoch ms of its actual send where ms counts from
//   another moment (Vegeta: the schedule; a kill's cost counts from the send,
//   fault-cost.js)} — one at a time (onRequest) or k alike at once
//   (onRequests(sample, k)) — and resolves with what the tool says of the run:
//   {source?: {tool: <its key here>, exact, …}, meta?: {workload: {tool}, …}, timeline?}.
// - It refuses anything else with an InputError that names the file (and the line or the
//   field), never echoing its content — another tool's output included, which `sniff`
//   recognises so that the CLI says whose output it is and which --format reads it.
// - It stays bounded whatever the file claims: lines through engines/open.js (a line over
//   its limit, a gzip that inflates past INFLATE_LIMITS: refused), whole documents through
//   result/read.js (over MAX_JSON_BYTES: refused); a count in the file sets no work.
import { ENGINES } from '../engines/index.js';
import { readFortio } from './fortio.js';
import { engineOf, workloadOf } from '../result/workload.js';

// sniff: the start of a file (its first non-blank line, or the start of one JSON document)
// looks like this tool's output. summaryCount: the count the tool's own summary holds
// (--summary; null: it writes none).
export const FORMATS = Object.freeze({
  ...Object.fromEntries(Object.values(ENGINES).map((e) => [e.name, { ...e.reader, summaryCount: e.summaryCount }])),
  fortio: {
    read: readFortio,
    what: 'fortio load -json',
    sniff: (text) => /"DurationHistogram"\s*:/.test(text) || /^\{\s*"RunType"\s*:/.test(text),
    summaryCount: null,
  },
});

const RULE = 'a result names the load tool its reader read';

/**
 * Which tool's output the start of a file looks like, or null: so that a reader's refusal
 * can say "this is k6's, --format k6" rather than what its own parser tripped on. Each
 * tool's output looks like its own only (reader-contract.test.js, on every fixture).
 */
export function sniffFormat(head) {
  const text = head.replace(/^\s+/, '');
  return Object.keys(FORMATS).find((name) => FORMATS[name].sniff(text)) ?? null;
}

/**
 * What in `meta` claims a load tool other than `format`'s, as problems naming the field
 * and the rule. compare holds a workload's tool (result/workload.js: `tool`, or k6's
 * version and script digest) as like with like, so a fortio run ingested with a k6 run's
 * meta.json would pass against k6 baselines. Values are never quoted: meta is a file from
 * elsewhere.
 */
export function toolClaims(format, meta) {
  const problems = [];
  const rule = `${RULE}: --format ${format}`;
  if (format !== 'k6' && meta.k6 !== undefined && meta.k6 !== null)
    problems.push(`k6: a k6 version, not ${format}'s (${rule})`);
  const w = meta.workload;
  if (w === undefined) return problems;
  if (!w || typeof w !== 'object' || Array.isArray(w)) return [...problems, 'workload: expected an object'];
  if (w.tool !== undefined && w.tool !== format)
    problems.push(`workload.tool: names a load tool other than ${format} (${rule})`);
  const k6Marks = format === 'k6' ? [] : ['k6', 'scripts'].filter((k) => Object.hasOwn(w, k));
  if (k6Marks.length)
    problems.push(
      `${k6Marks.map((k) => `workload.${k}`).join(', ')}: a k6 run's workload (k6 version, script digest), not ${format}'s (${rule})`,
    );
  return problems;
}

/**
 * The workload record a result of `format`'s output carries, naming its engine: ingest knows
 * the tool whose output it parsed, so no result leaves it without one (a run that names none
 * is not compared, compare/engine-of-record.js). --meta's record where it gave one, else the
 * one its scenario and k6 version make (result/workload.js workloadOf). A k6 record keeps
 * its form where it has k6's marks (its version, its script digest: no tool, so a k6 history
 * series keeps its workload); one without them names k6 as its tool. Before, a k6 output
 * ingested without its run's meta carried no record and compared with anything.
 */
export function workloadOfRecord(format, meta) {
  const w = meta.workload ?? workloadOf({ meta }) ?? {};
  if (format === 'k6' && engineOf(w) === 'k6') return w;
  return { ...w, tool: format };
}
