// The load tools whose output `tailgate ingest --format` reads: one reader each, all
// handing request samples to the same aggregate (ingest.js). Adding a tool = one reader
// file and one line here.
import { readK6Output } from './k6-stream.js';
import { readVegeta } from './vegeta.js';
import { readFortio } from './fortio.js';

export const FORMATS = Object.freeze({
  k6: { read: readK6Output, what: "k6's --out json (.gz)" },
  vegeta: { read: readVegeta, what: 'vegeta encode --to json or --to csv (.gz)' },
  fortio: { read: readFortio, what: 'fortio load -json' },
});

const RULE = 'a result names the load tool its reader read';

/**
 * Which tool's output the start of a file looks like (its first non-blank line, or the
 * start of one JSON document), or null: so that a reader's refusal can say "this is
 * k6's, --format k6" rather than what its own parser tripped on.
 */
export function sniffFormat(head) {
  const text = head.replace(/^\s+/, '');
  if (/^\{[^\n]*"type"\s*:\s*"(Point|Metric)"/.test(text)) return 'k6';
  if (/"DurationHistogram"\s*:/.test(text) || /^\{\s*"RunType"\s*:/.test(text)) return 'fortio';
  if (/^\{[^\n]*"attack"\s*:/.test(text) || /^\{[^\n]*"latency"\s*:\s*\d[^\n]*"code"\s*:/.test(text)) return 'vegeta';
  if (/^\d{10,},\d{1,3},\d+,/.test(text)) return 'vegeta'; // --to csv: timestamp,code,latency,…
  return null;
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
