// What load a run measured: the scenario after defaults (rate per side, duration,
// warm-up, replicas, VUs, timeout, TLS, payload, faults and their schedule, a duet's
// canaries), the k6 script that ran (a digest of k6/) and the k6 version. Two runs are
// comparable only when their workloads agree: a PR that lowers the rate or drops the
// faults must not pass because it measured something easier.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../exec/tools.js';

// Scenario fields that describe the person, not the load. The engine asked for (auto) is
// not the one that ran: the record names that one (workloadRecord).
const NOT_LOAD = new Set(['name', 'description', 'engine']);

let scriptsDigest;
/** sha256 over k6/ (the scenario scripts and their library), in a stable order. */
export function k6ScriptsDigest() {
  if (scriptsDigest) return scriptsDigest;
  const h = createHash('sha256');
  const walk = (dir, rel) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory()) walk(join(dir, e.name), `${rel}${e.name}/`);
      else if (e.isFile() && e.name.endsWith('.js')) {
        h.update(`${rel}${e.name}\0`);
        h.update(readFileSync(join(dir, e.name)));
        h.update('\0');
      }
    }
  };
  walk(join(ROOT, 'k6'), '');
  scriptsDigest = h.digest('hex');
  return scriptsDigest;
}

/**
 * The workload a run records in meta.workload (runner.js). engine: {name, version} of the
 * engine that ran (engines/index.js), or a k6 version as before. A k6 run's record is
 * what it always was (k6 version, script digest: no tool named, so k6 history series keep
 * their workload); Vegeta's names the tool and its version: never like with like with k6's.
 */
export function workloadRecord(scenario, engine) {
  const e = typeof engine === 'object' && engine ? engine : { name: 'k6', version: engine };
  if (e.name === 'k6') return { ...loadFields(scenario), k6: e.version ?? null, scripts: k6ScriptsDigest() };
  return { ...loadFields(scenario), tool: e.name, [e.name]: e.version ?? null };
}

/** A scenario's load: its fields that describe the load, not the person (sorted). */
export function scenarioLoad(scenario) {
  return loadFields(scenario);
}

function loadFields(scenario = {}) {
  return Object.fromEntries(
    Object.entries(scenario)
      .filter(([k, v]) => !NOT_LOAD.has(k) && v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** A result's workload: meta.workload, or for results written before it, meta.scenario + meta.k6. */
export function workloadOf(rep) {
  const m = rep.meta ?? {};
  if (m.workload && typeof m.workload === 'object') return m.workload;
  if (!m.scenario) return null;
  return { ...loadFields(m.scenario), ...(m.k6 ? { k6: m.k6 } : {}) };
}

/**
 * Fields whose values differ between two workloads, as "field a → b". A field only one
 * side records (an older result has no script digest) is not compared — unless `unset`:
 * two bench configs' scenarios (plan/duet.js), where a field one side lacks is a default
 * it relied on, shown "(unset)".
 */
export function workloadDiff(a, b, { unset = false } = {}) {
  if (!a || !b) return [];
  const out = [];
  // k6's records name no tool (they predate the others); a fortio run is never like with
  // like with a k6 baseline, however alike their rates.
  const [ta, tb] = [engineOf(a), engineOf(b)];
  if (ta && tb && ta !== tb) out.push(`load tool ${ta} → ${tb}`);
  for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (k === 'tool' || (!unset && (!(k in a) || !(k in b)))) continue;
    const [x, y] = [show(a[k]), show(b[k])];
    if (x !== y) out.push(`${k} ${x} → ${y}`);
  }
  return out;
}

/**
 * The load engine a workload record names — its tool, or a k6 run's marks (its version, its
 * script digest: k6's records name no tool) — or null: a record that names none, or none at
 * all (a result ingested without one). compare/engine-of-record.js holds such a run apart.
 */
export function engineOf(w) {
  if (!w || typeof w !== 'object') return null;
  if (typeof w.tool === 'string') return w.tool;
  return 'k6' in w || 'scripts' in w ? 'k6' : null;
}

function show(v) {
  if (v === undefined) return '(unset)';
  if (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v)) return v.slice(0, 12);
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}
