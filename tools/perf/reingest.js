// A recorded duet run re-ingested from its raw load output (raw/, as init-prs.js leaves
// it) with this checkout's ingest: each pair's base and head results made again, as the
// runner would make them now (runner.js ingestDuet: the same output, events, sides and
// meta). Optionally with the head's failover made slower (exposureShift), laid on the raw
// requests so that every figure the gate reads — per-kill costs, p99, errors — moves as it
// would have:
//
// --exposure-shift 1.3: each kill's exposure on the head 30% longer. Per kill, the head's
// requests sent after its exposure E (the kill → the send of the last request it held up,
// ingest/fault-cost.js) and up to 1.3·E count as held up at the rate they were held up
// within E (a constant arrival rate: the share of the head's requests sent in [kill, E]
// that it held up), spread evenly, the last one at 1.3·E; each takes the latency, status
// and error of one of the kill's own last held-up requests in turn (on Traefik its 502s
// and 10 s timeouts, on haproxy-ingress its 100–500 ms bump). Vegeta output only (its
// lines name each request; k6's do not).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ingest } from '../src/ingest/ingest.js';
import { readEvents } from '../src/ingest/events.js';
import { classify } from '../src/ingest/classify.js';
import { actionOf } from '../src/ingest/fault-cost.js';
import { AGGREGATE_LIMITS } from '../src/ingest/aggregate.js';
import { FAULT_ACTIONS } from '../src/faults/actions.js';
import { Clock } from '../src/engines/clock.js';
import { resultRep } from '../src/result/load.js';

/**
 * The run's pairs per scenario, re-ingested: { scenario: [[base rep, head rep], …] } as
 * init-prs.js pairsByScenario gives the recorded ones.
 */
export async function reingestPairs(dir, controller, { scenario = null, exposureShift = 1 } = {}) {
  const tuning = (side) => (side === 'base' ? 'default' : readdirSync(join(dir, 'head', controller))[0]);
  const out = {};
  const scratch = mkdtempSync(join(tmpdir(), 'tg-reingest-'));
  try {
    for (const s of readdirSync(join(dir, 'base', controller, 'default'))) {
      if (scenario && s !== scenario) continue;
      const pairs = [];
      for (let i = 1; ; i++) {
        const rep = (side) => join(dir, side, controller, tuning(side), s, `rep-${i}`, 'result.json');
        const raw = join(dir, 'raw', controller, 'default', s, `rep-${i}`);
        if (!existsSync(rep('base')) || !existsSync(rep('head')) || !existsSync(raw)) break;
        const recorded = { base: readJson(rep('base')), head: readJson(rep('head')) };
        const made = await pair(raw, recorded, { exposureShift, scratch: join(scratch, `${s}-${i}`) });
        pairs.push(['base', 'head'].map((side) => resultRep(made[side], `${side} ${i} (re-ingested)`)));
      }
      out[s] = pairs;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return out;
}

const readJson = (f) => JSON.parse(readFileSync(f, 'utf8'));

async function pair(raw, recorded, { exposureShift, scratch }) {
  const vegeta = join(raw, 'vegeta.json.gz');
  const format = existsSync(vegeta) ? 'vegeta' : 'k6';
  const events = join(raw, 'events.jsonl');
  let output = format === 'vegeta' ? vegeta : join(raw, 'k6.json.gz');
  const sides = format === 'vegeta' ? targets(join(raw, 'vegeta-targets.json')) : null;
  const roleOf = (side) => (recorded.base.meta.ab.side === side ? 'base' : 'head');
  if (exposureShift !== 1) {
    if (format !== 'vegeta')
      throw new Error(`${raw}: --exposure-shift needs Vegeta's output (its lines name each request)`);
    const headUrl = sides[recorded.head.meta.ab.side];
    const text = shiftExposure(gunzipSync(readFileSync(vegeta)).toString('utf8'), {
      headUrl,
      events: readEvents(events),
      factor: exposureShift,
    });
    output = `${scratch}.json`;
    writeFileSync(output, text);
  }
  const out = {};
  for (const side of ['a', 'b']) {
    const r = recorded[roleOf(side)];
    const { ingestedAt, tailgate, ...meta } = r.meta;
    const result = await ingest({
      output,
      format,
      events,
      side,
      ...(sides ? { sides } : {}),
      meta: { ...meta, k6ExitCode: r.load?.k6ExitCode ?? 0 },
    });
    if (r.resources) result.resources = r.resources;
    out[roleOf(side)] = result;
  }
  return out;
}

// A Vegeta duet's targets file: side a's URL first (engines/vegeta/plan.js targetsText).
function targets(file) {
  const urls = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l).url);
  return { a: urls[0], b: urls[1] };
}

/**
 * Vegeta's JSON lines with the head's exposure at every kill × factor (see above) -> the
 * lines, the head's extra held-up requests rewritten.
 */
export function shiftExposure(text, { headUrl, events, factor, cutMs = AGGREGATE_LIMITS.lagMs }) {
  const clock = new Clock();
  const lines = text.split('\n');
  const head = [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const o = JSON.parse(line);
    if (o.url !== headUrl) return;
    const sent = clock.parse(o.timestamp, 'vegeta', i + 1);
    const ms = o.latency / 1e6;
    const failed = Boolean(classify(String(o.code), undefined, o.error ?? ''));
    head.push({ i, o, sent, end: sent + ms, ms, held: failed || ms >= cutMs });
  });
  head.sort((a, b) => a.sent - b.sent);
  const ts = events
    .filter((e) => FAULT_ACTIONS.includes(e.type))
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  const byKill = ts.map(() => []);
  for (const r of head) {
    const k = actionOf(ts, r);
    if (k >= 0) byKill[k].push(r);
  }
  byKill.forEach((own, k) => {
    const after = own.filter((r) => r.sent >= ts[k]);
    const held = after.filter((r) => r.held);
    if (!held.length) return;
    const exposure = held[held.length - 1].sent - ts[k];
    // The share of the head's requests the kill held up while it was exposed.
    const share = held.length / after.filter((r) => r.sent <= ts[k] + exposure).length;
    const ext = after.filter((r) => !r.held && r.sent > ts[k] + exposure && r.sent <= ts[k] + factor * exposure);
    if (!ext.length) return;
    const m = Math.min(ext.length, Math.max(1, Math.round(share * ext.length)));
    const like = held.slice(-m);
    for (let j = 1; j <= m; j++) {
      const r = ext[Math.round((j * ext.length) / m) - 1];
      const t = like[(j - 1) % like.length].o;
      lines[r.i] = JSON.stringify({ ...r.o, code: t.code, latency: t.latency, error: t.error });
    }
  });
  return lines.join('\n');
}
