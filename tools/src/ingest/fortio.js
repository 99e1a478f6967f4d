// fortio's JSON result (`fortio load -json out.json`): a histogram of fixed buckets, not
// the samples. Each bucket's requests are spread evenly over it — fortio's own percentiles
// interpolate linearly within a bucket the same way — and the result says, per quantile,
// the bucket the true value lies in (latency.source.bounds): the error bound is the
// bucket's width, 1 ms by default (`fortio load -r 0.0001` makes it 100 µs).
import { InputError } from '../errors.js';
import { readJsonFile } from '../result/read.js';
import { newHistogram } from '../result/histogram.js';
import { QUANTILES } from '../result/quantiles.js';

const MAX_BUCKETS = 10_000;
// Requests are recorded a histogram bin at a time, so the count sets no work; it is
// bounded by the 32-bit count of an HDR bin (4.29e9), with room: 10⁹ is a day at 11,500/s.
const MAX_REQUESTS = 1_000_000_000;
const MAX_S = 3600;

/**
 * onRequests({ts, ms, status, error}, count) per run of requests alike; resolves with
 * {source, meta, timeline: false, records}. The runs are at most one per histogram bin
 * and status within a bucket (~23k bins span an hour at 3 digits), whatever Count says.
 */
export async function readFortio(file, { onRequests }) {
  const doc = readJsonFile(file);
  const problems = [];
  const h = doc?.DurationHistogram;
  if (!doc || typeof doc !== 'object' || !h || typeof h !== 'object' || !Array.isArray(h.Data))
    throw new InputError(
      `${file}: not fortio's JSON result (no DurationHistogram.Data; write it with fortio load -json)`,
    );
  if (!Number.isInteger(h.Count) || h.Count < 0 || h.Count > MAX_REQUESTS)
    problems.push(`DurationHistogram.Count: expected an integer from 0 to ${MAX_REQUESTS}`);
  if (h.Data.length > MAX_BUCKETS) problems.push(`DurationHistogram.Data: more than ${MAX_BUCKETS} buckets`);
  const buckets = h.Data.slice(0, MAX_BUCKETS);
  let sum = 0;
  buckets.forEach((b, i) => {
    const at = `DurationHistogram.Data[${i}]`;
    if (!b || typeof b !== 'object') return problems.push(`${at}: expected {Start, End, Count}`);
    if (![b.Start, b.End].every((v) => Number.isFinite(v) && v >= 0 && v <= MAX_S) || b.Start > b.End)
      problems.push(`${at}: Start and End: expected seconds, 0 ≤ Start ≤ End ≤ ${MAX_S}`);
    if (!Number.isInteger(b.Count) || b.Count < 0) problems.push(`${at}.Count: expected a non-negative integer`);
    else sum += b.Count;
    if (i > 0 && Number.isFinite(b.Start) && b.Start < buckets[i - 1].End)
      problems.push(`${at}: overlaps the bucket before it`);
  });
  if (Number.isInteger(h.Count) && sum !== h.Count)
    problems.push(`DurationHistogram: its buckets hold ${sum} requests, Count says ${h.Count}`);
  const codes = retCodes(doc.RetCodes, problems);
  const coded = Object.values(codes).reduce((a, b) => a + b, 0);
  if (problems.length === 0 && coded !== h.Count)
    problems.push(`RetCodes: count ${coded} requests, DurationHistogram.Count ${h.Count}`);
  const start = Date.parse(doc.StartTime);
  if (!Number.isFinite(start)) problems.push('StartTime: expected an RFC 3339 time');
  if (!Number.isInteger(doc.ActualDuration) || doc.ActualDuration <= 0 || doc.ActualDuration > 7 * 86_400 * 1e9)
    problems.push('ActualDuration: expected nanoseconds, more than 0 and at most a week');
  if (problems.length)
    throw new InputError(`${file}: not a fortio result tailgate can read: ${problems.length} problem(s)`, {
      details: problems.slice(0, 20),
    });

  // Statuses in a fixed order over the requests: fortio does not say which request got
  // which code, and only the counts reach the result (no timeline is drawn from it).
  const order = Object.entries(codes);
  let at = 0;
  let left = order[0]?.[1] ?? 0;
  let records = 0;
  const emit = (ms, k) => {
    while (k > 0) {
      while (left === 0) left = order[++at][1];
      const take = Math.min(k, left);
      const code = order[at][0];
      records++;
      onRequests(
        { ts: start, ms, ...(code === '-1' ? { status: '0', error: 'socket error' } : { status: code }) },
        take,
      );
      left -= take;
      k -= take;
    }
  };
  const bins = newHistogram(3);
  for (const b of buckets) spread(b, bins, emit);

  const rate = Number(doc.RequestedQPS);
  const source = {
    tool: 'fortio',
    ...(typeof doc.Version === 'string' && /^[\w.+-]{1,40}$/.test(doc.Version) ? { version: doc.Version } : {}),
    exact: false,
    bounds: bounds(buckets, h.Count),
  };
  return {
    source,
    timeline: false,
    records,
    meta: {
      ...(Number.isInteger(rate) && rate > 0 ? { rate } : {}),
      durationMs: Math.round(doc.ActualDuration / 1e6),
      workload: {
        tool: 'fortio',
        rate: Number.isInteger(rate) ? rate : 'max',
        ...(Number.isInteger(doc.NumThreads) ? { connections: doc.NumThreads } : {}),
        ...(Number.isFinite(doc.Resolution) ? { resolutionS: doc.Resolution } : {}),
      },
    },
  };
}

// A bucket's requests spread evenly over it — the i-th of n at Start + (i + ½)/n of its
// width, in integer µs as the aggregate records it — handed over a histogram bin at a
// time: the requests that share a bin are found by binary search (the spread is monotone).
function spread(b, bins, emit) {
  const n = b.Count;
  const us = (i) => Math.round((b.Start + ((i + 0.5) / n) * (b.End - b.Start)) * 1000 * 1000);
  for (let i = 0; i < n;) {
    const v = us(i);
    const next = bins.nextNonEquivalentValue(v);
    let lo = i;
    let hi = n - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (us(mid) < next) lo = mid;
      else hi = mid - 1;
    }
    emit(v / 1000, lo - i + 1);
    i = lo + 1;
  }
}

function retCodes(m, problems) {
  if (!m || typeof m !== 'object' || Array.isArray(m)) {
    problems.push('RetCodes: expected an object of status code → count');
    return {};
  }
  const out = {};
  for (const [code, n] of Object.entries(m).slice(0, 1000)) {
    if (!/^(-1|\d{1,3})$/.test(code)) problems.push('RetCodes: a key is not an HTTP status code or -1');
    else if (!Number.isInteger(n) || n < 0 || n > MAX_REQUESTS)
      problems.push(`RetCodes.${code}: expected a non-negative integer`);
    else out[code] = n;
  }
  return out;
}

// The bucket each quantile's sample lies in, in ms: [its Start, its End].
function bounds(buckets, count) {
  const out = {};
  for (const [name, pct] of Object.entries(QUANTILES)) {
    const rank = Math.max(1, Math.ceil((pct / 100) * count));
    let seen = 0;
    const b = buckets.find((x) => (seen += x.Count) >= rank);
    if (b) out[name] = [round3(b.Start * 1000), round3(b.End * 1000)];
  }
  return out;
}

const round3 = (v) => Math.round(v * 1000) / 1000;
