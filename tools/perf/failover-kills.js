#!/usr/bin/env node
// Each kill of a recorded duet run, from its raw load output (raw/, as init-prs.js or a
// PR's bench job leaves it): what the failover test reads per kill, under both ways of
// counting a request — from its scheduled send (how the ingest counted Vegeta's requests
// until issue 66: latency includes the engine's lateness) and from its actual send (k6's
// way: its latency starts at the send). Per kill and side: the stall (the kill → the end
// of the last request of ≥ 100 ms it held up) under each, the share of lateness in the
// request that ended the scheduled stall, which kills stalled one side only under each,
// and the both-sided kills whose two stalls differ ×2 or more (discordant); and what the
// failover test gates on since (compare/failover.js), from the actual send: each side's
// exposure (the kill → the send of the last request it held up) and how many requests it
// held up. Per run: the counts, and the spreads that set the failover test's power.
//   node tools/perf/failover-kills.js <run dir> [--json | --fixture <name>]
// --fixture: each kill's exposure, held-up count and stall on both sides (from the actual
// send), compact — tools/test/fixtures/kills/, the recorded kills the failover simulation
// resamples (failover-sim.test.js).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORMATS } from '../src/ingest/formats.js';
import { faultCost } from '../src/ingest/fault-cost.js';
import { classify } from '../src/ingest/classify.js';
import { readEvents } from '../src/ingest/events.js';
import { AGGREGATE_LIMITS } from '../src/ingest/aggregate.js';
import { median } from '../src/numbers.js';

const CUT = AGGREGATE_LIMITS.lagMs;
const KILL = 'pod-killed';
// Two stalls of one kill this far apart (×2) are discordant: not the same failover seen twice.
const DISCORDANT = Math.log(2);

/** Every duet cell under <dir>/raw with its pairs: [{cell, reps: [{rep, dir, result}]}]. */
export function rawCells(dir) {
  const out = [];
  const raw = join(dir, 'raw');
  for (const controller of readdirSync(raw))
    for (const tuning of readdirSync(join(raw, controller)))
      for (const scenario of readdirSync(join(raw, controller, tuning))) {
        const cellDir = join(raw, controller, tuning, scenario);
        const reps = readdirSync(cellDir)
          .filter((r) => /^rep-\d+$/.test(r))
          .sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)))
          .map((rep) => ({
            rep,
            dir: join(cellDir, rep),
            result: join(dir, 'base', controller, tuning, scenario, rep, 'result.json'),
          }))
          .filter((r) => existsSync(join(r.dir, 'events.jsonl')) && existsSync(r.result));
        if (reps.length) out.push({ cell: `${controller}/${tuning}/${scenario}`, reps });
      }
  return out;
}

/**
 * One pair's raw output read by the engine's own reader -> { format, source, sides:
 * {base, head}: [{ts, ms, sent, status, error, errorCode, phase}] }. Roles from the base's
 * result (meta.ab.side); a Vegeta duet's sides from its targets file (side a first).
 */
export async function readPair(rep) {
  const base = JSON.parse(readFileSync(rep.result, 'utf8'));
  const baseSide = base.meta?.ab?.side ?? 'a';
  const vegeta = join(rep.dir, 'vegeta.json.gz');
  const format = existsSync(vegeta) ? 'vegeta' : 'k6';
  const file = format === 'vegeta' ? vegeta : join(rep.dir, 'k6.json.gz');
  const sides =
    format === 'vegeta'
      ? Object.fromEntries(
          readFileSync(join(rep.dir, 'vegeta-targets.json'), 'utf8')
            .split('\n')
            .filter((l) => l.trim())
            .map((l, i) => [i ? 'b' : 'a', JSON.parse(l).url]),
        )
      : null;
  const out = { base: [], head: [] };
  const read = await FORMATS[format].read(file, {
    onRequest: (s) => s.phase !== 'warmup' && out[s.side === baseSide ? 'base' : 'head'].push(s),
    onRequests: () => {},
    onDropped: () => {},
    ...(sides ? { sides } : {}),
  });
  return { format, source: read.source, sides: out, events: readEvents(join(rep.dir, 'events.jsonl')) };
}

// A request's lists as the ingest keeps them, counted from its scheduled send (its
// latency ms, lateness included) or from its actual send (sent; the end minus ms where the
// reader gives none). Each list entry carries its own ms: faultCost reads end − ms as the send.
function lists(requests, from) {
  const lag = [];
  const failed = [];
  for (const s of requests) {
    const ms = from === 'sent' ? s.ts - (s.sent ?? s.ts - s.ms) : s.ms;
    const r = { end: s.ts, ms, late: Math.max(0, s.ms - (s.ts - (s.sent ?? s.ts - s.ms))) };
    if (ms >= CUT) lag.push(r);
    if (classify(s.status, s.errorCode, s.error)) failed.push(r);
  }
  return { lag, failed };
}

// The kills of one side under one way of counting, and the request that ended each stall.
function sideKills(events, requests, from) {
  const { lag, failed } = lists(requests, from);
  const cost = faultCost(events, [], failed.length, failed, { requests: lag, cutMs: CUT, complete: true });
  const kills = events.filter((e) => e.type === KILL).sort((a, b) => a.ts - b.ts);
  return (cost?.perAction ?? [])
    .filter((a) => a.type === KILL)
    .map((a, k) => {
      const at = kills[k].ts;
      // The request whose end is the stall's (its kill's by fault-cost.js's rule).
      const last = a.stallMs
        ? lag.find((r) => Math.round(r.end - at) === a.stallMs && r.end - r.ms >= at - 5000)
        : null;
      return { ...a, lateShare: last ? last.late / last.ms : null, lateMs: last ? last.late : null };
    });
}

// Held up at least one request (the failover test's "hit"), from the actual send.
const hitOf = (b, h) =>
  b.heldUp > 0 && h.heldUp > 0 ? 'both' : b.heldUp > 0 ? 'base only' : h.heldUp > 0 ? 'head only' : 'neither';
const floored = (ms) => Math.max(ms, 10);

const classOf = (b, h) =>
  b.stallMs >= CUT && h.stallMs >= CUT
    ? 'both'
    : b.stallMs >= CUT
      ? 'base only'
      : h.stallMs >= CUT
        ? 'head only'
        : 'neither';

/** The kills of one pair under both ways of counting. */
export async function pairKills(rep) {
  const pair = await readPair(rep);
  const of = (from) => ({
    base: sideKills(pair.events, pair.sides.base, from),
    head: sideKills(pair.events, pair.sides.head, from),
  });
  const [sched, sent] = [of('schedule'), of('sent')];
  const kills = sched.base.map((b, k) => {
    const h = sched.head[k];
    const [b2, h2] = [sent.base[k], sent.head[k]];
    const both = b.stallMs >= CUT && h.stallMs >= CUT;
    return {
      kill: k + 1,
      at: b.at,
      schedule: { base: b, head: h, class: classOf(b, h) },
      sent: { base: b2, head: h2, class: classOf(b2, h2) },
      hit: hitOf(b2, h2),
      exposureLogRatio:
        b2.heldUp > 0 && h2.heldUp > 0 ? Math.log(floored(h2.exposureMs) / floored(b2.exposureMs)) : null,
      logRatio: both ? Math.log(h.stallMs / b.stallMs) : null,
      discordant: both && Math.abs(Math.log(h.stallMs / b.stallMs)) >= DISCORDANT,
    };
  });
  return { rep: rep.rep, format: pair.format, schedule: pair.source?.schedule ?? null, kills };
}

const robustSd = (d) => {
  const m = median(d);
  return 1.4826 * median(d.map((x) => Math.abs(x - m)));
};

/** A cell's kills in numbers: per way of counting, the classes; what moved between them. */
export function summary(pairs) {
  const all = pairs.flatMap((p) => p.kills);
  const count = (from) => {
    const c = { both: 0, 'base only': 0, 'head only': 0, neither: 0 };
    for (const k of all) c[k[from].class]++;
    return c;
  };
  const both = all.filter((k) => k.logRatio !== null);
  const shares = all.flatMap((k) => [k.schedule.base.lateShare, k.schedule.head.lateShare]).filter((x) => x !== null);
  const hits = { both: 0, 'base only': 0, 'head only': 0, neither: 0 };
  for (const k of all) hits[k.hit]++;
  const exposures = all.filter((k) => k.exposureLogRatio !== null).map((k) => k.exposureLogRatio);
  return {
    kills: all.length,
    schedule: count('schedule'),
    sent: count('sent'),
    hit: hits,
    exposureLogRatio: {
      robustSd: robustSd(exposures),
      discordant: exposures.filter((x) => Math.abs(x) >= DISCORDANT).length,
    },
    movedClass: all.filter((k) => k.schedule.class !== k.sent.class).map((k) => `${k.pair}#${k.kill}`),
    discordant: both.filter((k) => k.discordant).length,
    bothSided: both.length,
    stallLogRatio: {
      robustSd: robustSd(both.map((k) => k.logRatio)),
      maxAbs: Math.max(0, ...both.map((k) => Math.abs(k.logRatio))),
    },
    lateness: {
      lateSends: pairs.reduce((a, p) => a + (p.schedule?.lateSends ?? 0), 0),
      maxLagMs: Math.max(0, ...pairs.map((p) => p.schedule?.maxLagMs ?? 0)),
      stallEnds: shares.length,
      maxShare: Math.max(0, ...shares),
      over10pct: shares.filter((x) => x > 0.1).length,
    },
  };
}

const fmt = (x) => String(Math.round(x)).padStart(6);
const pct = (x) => (x === null ? '    –' : `${(100 * x).toFixed(1)}%`.padStart(5));

function print(cell, pairs) {
  console.log(`\n== ${cell}: ${pairs.length} pairs (${pairs[0]?.format})`);
  console.log(
    'pair kill     at | base stall sched / sent  late  exposure held | head stall sched / sent  late  exposure held | class sched / sent',
  );
  for (const p of pairs)
    for (const k of p.kills) {
      const side = (s) =>
        `${fmt(k.schedule[s].stallMs)} / ${fmt(k.sent[s].stallMs)} ${pct(k.schedule[s].lateShare)} ${fmt(k.sent[s].exposureMs ?? NaN)} ${String(k.sent[s].heldUp ?? '–').padStart(4)}`;
      const moved = k.schedule.class === k.sent.class ? k.sent.class : `${k.schedule.class} → ${k.sent.class}`;
      console.log(
        `${p.rep.padStart(6)} ${String(k.kill).padStart(3)} ${k.at.toFixed(1).padStart(6)} | ${side('base')} | ${side('head')} | ${moved}${k.discordant ? `  discordant ×${Math.exp(Math.abs(k.logRatio)).toFixed(1)}` : ''}`,
      );
    }
  const s = summary(pairs.map((p) => ({ ...p, kills: p.kills.map((k) => ({ ...k, pair: p.rep })) })));
  console.log(
    `kills ${s.kills}; from the schedule: ${JSON.stringify(s.schedule)}; from the send: ${JSON.stringify(s.sent)}; class moved: ${s.movedClass.length ? s.movedClass.join(', ') : 'none'}`,
  );
  console.log(
    `both-sided ${s.bothSided}, discordant (×2 or more) ${s.discordant}; log stall ratio robust sd ${s.stallLogRatio.robustSd.toFixed(3)}, largest |log| ${s.stallLogRatio.maxAbs.toFixed(2)}`,
  );
  console.log(
    `from the send, held up: ${JSON.stringify(s.hit)}; log exposure ratio (both held up) robust sd ${s.exposureLogRatio.robustSd.toFixed(3)}, ×2 or more apart ${s.exposureLogRatio.discordant}`,
  );
  console.log(
    `lateness: ${s.lateness.lateSends} late sends (> 10 ms), at most ${s.lateness.maxLagMs} ms; in the ${s.lateness.stallEnds} requests that ended a stall at most ${(100 * s.lateness.maxShare).toFixed(1)}% of the latency, over 10% in ${s.lateness.over10pct}`,
  );
  return s;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, ...rest] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node tools/perf/failover-kills.js <run dir> [--json]');
    process.exit(2);
  }
  const fixture = rest.includes('--fixture') ? rest[rest.indexOf('--fixture') + 1] : null;
  const quiet = rest.includes('--json') || fixture;
  const out = [];
  for (const { cell, reps } of rawCells(dir)) {
    const pairs = [];
    for (const rep of reps) pairs.push(await pairKills(rep));
    out.push({ cell, pairs, summary: quiet ? summary(pairs) : print(cell, pairs) });
  }
  if (rest.includes('--json')) console.log(JSON.stringify(out, null, 1));
  if (fixture) {
    const costs = (k) => [k.sent.base, k.sent.head].map((x) => [x.exposureMs, x.heldUp, x.stallMs]);
    const pairs = out[0].pairs.map((p) => p.kills.map(costs));
    console.log(JSON.stringify({ run: fixture, fields: ['exposureMs', 'heldUp', 'stallMs'], pairs }));
  }
}
