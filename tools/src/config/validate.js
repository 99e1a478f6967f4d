// Rules that a JSON Schema cannot say: cross-references, per-script requirements,
// target/controller compatibility. Runs on the defaulted config; returns every problem.
import { MAX_RUN_MS, parseDuration } from '../units.js';
import { TARGET_RULES as TARGETS } from '../registry/target-rules.js';
import { samplesNeeded } from '../result/quantiles.js';
import { matrixSizeProblems, SEQUENTIAL_LOOK_P } from './matrix-limits.js';
import { faultModule } from '../faults/schedule.js';
import { faultTiming, scenarioMs } from './normalise.js';
import { GATE_DEFAULTS, scenarioAsRun } from './defaults.js';
import { k6Load, oneK6BothSides } from './duet-load.js';

// Scenario keys that change only a kind duet's backend (targets/kube/steps.js headCanary).
const DUET_CANARIES = ['headDelay', 'headDelayShare', 'headErrors', 'headAltErrors', 'backendErrors'];

// A sweep runs every rate at every connection count, one after another in one cell;
// a fault schedule is a few actions. Beyond these a file is generated or mistyped.
export const SCENARIO_LIMITS = Object.freeze({ sweepSteps: 400, faults: 16 });

const SCRIPT_NEEDS = {
  steady: ['rate'],
  sequential: [],
  sweep: ['rates', 'connections'],
  saturation: ['maxRate'],
};

export function semanticProblems(cfg) {
  const problems = [];
  const seen = new Set();
  // A controller shared by several matrices is reported once.
  // from: the config paths a value came from, where they may be command-line overrides
  // (config/overrides.js) — load.js names the flag instead of the file's line.
  // derivedFrom: the fields a rule's numbers are made from (config/derived.js).
  const add = (path, message, from, derivedFrom) => {
    const key = JSON.stringify([path, message]);
    if (!seen.has(key)) problems.push({ path, message, ...(from && { from }), ...(derivedFrom && { derivedFrom }) });
    seen.add(key);
  };
  for (const [name, s] of Object.entries(cfg.scenarios)) scenarioProblems(name, s, add);
  for (const [mname, m] of Object.entries(cfg.matrices)) {
    matrixProblems(cfg, mname, m, add);
    // What only the matrix's target decides (registry/target-rules.js): its controllers, its faults.
    TARGETS[m.target]?.problems?.(cfg, mname, m, add);
  }
  return problems;
}

// One scenario on its own: what its script needs, its limits, its faults' schedules.
function scenarioProblems(name, s, add) {
  for (const field of SCRIPT_NEEDS[s.script] ?? []) {
    if (s[field] === undefined) add(['scenarios', name], `script "${s.script}" needs "${field}"`);
  }
  if (s.maxVus < s.vus) add(['scenarios', name, 'maxVus'], `must be >= vus (${s.vus})`);
  if (s.runners > 1 && !['steady', 'saturation'].includes(s.script))
    add(
      ['scenarios', name, 'runners'],
      `several runners split an arrival-rate scenario (steady, saturation), not "${s.script}"`,
    );
  const steps = (s.rates?.length ?? 1) * (s.connections?.length ?? 1);
  if (steps > SCENARIO_LIMITS.sweepSteps)
    add(
      ['scenarios', name, 'rates'],
      `${s.rates.length} rates × ${s.connections?.length ?? 1} connection counts = ${steps} sweep steps, over the limit of ${SCENARIO_LIMITS.sweepSteps}`,
    );
  if (s.faults.length > SCENARIO_LIMITS.faults)
    add(
      ['scenarios', name, 'faults'],
      `${s.faults.length} faults, over the limit of ${SCENARIO_LIMITS.faults} per scenario`,
    );
  // The scenario's numbers, made once (normalise.js keeps them for every later stage).
  const ms = scenarioMs(s);
  if (ms.duration < 1000) add(['scenarios', name, 'duration'], 'must be at least 1s');
  if (ms.duration > MAX_RUN_MS) add(['scenarios', name, 'duration'], 'must be at most 24h');
  if (ms.warmup > MAX_RUN_MS) add(['scenarios', name, 'warmup'], 'must be at most 24h');
  // nginx's timers count whole milliseconds: ngx.sleep(0.0007) is a yield (+0.3 ms at
  // p50 here), not 0.7 ms.
  if (s.headDelay && ms.headDelay % 1 !== 0)
    add(['scenarios', name, 'headDelay'], 'must be whole milliseconds (the backend sleeps with nginx timers)');
  if (s.headDelayShare && !s.headDelay) add(['scenarios', name, 'headDelayShare'], 'needs headDelay');
  // What a fault's type refuses is its module's (faults/<type>.js problems): the fault and
  // the scenario with their milliseconds.
  const timed = { ...s, ms: { duration: ms.duration } };
  s.faults.forEach((f, i) => {
    const t = faultTiming(f);
    for (const p of faultModule(f.type).problems?.(t, timed) ?? [])
      add(['scenarios', name, 'faults', i, p.field], p.message);
    if (t.ms.every !== undefined && t.ms.every < 100)
      add(['scenarios', name, 'faults', i, 'every'], 'must be at least 100ms');
  });
}

// One matrix, whatever its target: its references, its comparison, its size, its runner.
function matrixProblems(cfg, mname, m, add) {
  const at = (field, i) => ['matrices', mname, field, i];
  if (m.duration && (parseDuration(m.duration) < 1000 || parseDuration(m.duration) > MAX_RUN_MS))
    add(['matrices', mname, 'duration'], 'must be between 1s and 24h');
  const t = TARGETS[m.target];
  m.controllers.forEach((c, i) => {
    const ctl = own(cfg.controllers, c);
    if (!ctl) return add(at('controllers', i), `unknown controller "${c}"; defined: ${list(cfg.controllers)}`);
    if (ctl.type !== t?.controllerType)
      add(
        at('controllers', i),
        `controller "${c}" is type "${ctl.type}", target "${m.target}" needs type "${t?.controllerType}"`,
      );
  });
  m.tunings.forEach((tn, i) => {
    if (!own(cfg.tunings, tn)) add(at('tunings', i), `unknown tuning "${tn}"; defined: ${list(cfg.tunings)}`);
  });
  m.scenarios.forEach((sn, i) => {
    if (!own(cfg.scenarios, sn)) add(at('scenarios', i), `unknown scenario "${sn}"; defined: ${list(cfg.scenarios)}`);
  });
  compareProblems(cfg, mname, m, add);
  for (const field of ['controllers', 'tunings', 'scenarios']) {
    const seen = new Set();
    m[field].forEach((x, i) => {
      // Two identical entries would run one cell twice into the same folder.
      if (seen.has(x)) add(at(field, i), `duplicate entry "${x}": each ${field.slice(0, -1)} may appear once`);
      seen.add(x);
    });
  }
  const most = { ...m, repetitions: Math.max(m.repetitions ?? 1, m.maxRepetitions ?? 0) };
  for (const p of matrixSizeProblems(most)) add(['matrices', mname, p.field], p.message);
  // The rate the profile's runner can carry: what k6 runs for a cell (config/duet-load.js,
  // engines/load.js cellLoad's rule too: a duet's one k6 runs both sides, unless they alternate).
  const cap = own(cfg.profiles, m.profile ?? '')?.maxRate;
  const sides = { duet: m.compare === 'concurrent' || m.duet, alternate: m.alternate };
  const both = oneK6BothSides(sides);
  if (cap)
    for (const sname of m.scenarios) {
      const s = asRun(cfg, m, sname);
      const perRunner = s?.rate ? k6Load(s, sides).rate / (s.runners ?? 1) : 0;
      if (perRunner > cap)
        add(
          ['scenarios', sname, 'rate'],
          `${s.rate}/s${both ? ' per side is ' + perRunner + '/s for the one k6 of a duet' : ''}, over profile "${m.profile}"'s maxRate ${cap} (what its runner carries; matrix "${mname}"): lower the rate, or raise maxRate after measuring (docs/duet.md)`,
          fromMatrix(mname, m, ['rate', 'duet', 'alternate']),
        );
    }
  tailFeasibility(cfg, mname, m, add);
  if (!m.profile)
    add(['matrices', mname], `target "${m.target}" needs a "profile" (the runner class baselines are kept for)`);
  else if (!own(cfg.profiles, m.profile))
    add(['matrices', mname, 'profile'], `unknown profile "${m.profile}"; defined: ${list(cfg.profiles)}`);
}

// compare: concurrent (a duet) and what hangs off it: head, the duet canaries, alternate —
// each where the target can run two sides at once (registry/target-rules.js duet, canaries).
function compareProblems(cfg, mname, m, add) {
  const t = TARGETS[m.target];
  if (m.compare === 'concurrent') {
    const [hc, ht = 'default'] = (m.head ?? '').split(':');
    if (!t?.duet) add(['matrices', mname, 'compare'], `concurrent runs on targets ${duetTargets()}, not "${m.target}"`);
    // Without head on kind: a PR's duet (run --duet-base <the base checkout's bench.yaml>).
    else if (!m.head && !t.prDuet)
      add(['matrices', mname, 'compare'], 'concurrent needs head: <controller>[:<tuning>]');
    else if (m.head && own(cfg.controllers, hc)?.type !== t.controllerType)
      add(['matrices', mname, 'head'], `"${hc}" is not a ${t.controllerType} controller of this file`);
    else if (m.head && !own(cfg.tunings, ht)) add(['matrices', mname, 'head'], `unknown tuning "${ht}"`);
  } else if (m.head) add(['matrices', mname, 'head'], 'applies to compare: concurrent only');
  const duetOnKind = Boolean(t?.canaries) && m.compare === 'concurrent';
  for (const sname of m.scenarios)
    for (const key of DUET_CANARIES)
      if (own(cfg.scenarios, sname)?.[key] && !duetOnKind)
        add(['scenarios', sname, key], `a duet canary: matrix "${mname}" must be target kind with compare: concurrent`);
  if (duetOnKind) canaryProblems(cfg, mname, m, add);
  // A duet's sides: the matrix's (compare: concurrent) or the flags' (--ab-head, --duet-base).
  if (m.alternate && !(t?.canaries && (m.compare === 'concurrent' || m.duet)))
    add(
      ['matrices', mname, 'alternate'],
      'alternates the sides of a duet: needs target kind and a duet (compare: concurrent, --ab-head or --duet-base)',
      fromMatrix(mname, m, ['alternate', 'duet']),
    );
  sequentialProblems(mname, m, add);
}

// A duet canary is the cluster's backend (targets/kube/steps/backend.js headCanary),
// installed once for every cell of the matrix: a scenario without it would measure it
// anyway (2026-11-27: an A/A steady cell beside a delay canary's copy had the delay).
function canaryProblems(cfg, mname, m, add) {
  for (const key of DUET_CANARIES) {
    const shown = (s) => String(own(cfg.scenarios, s)?.[key] ?? 'none');
    const [first, ...rest] = m.scenarios;
    const other = rest.find((s) => shown(s) !== shown(first));
    if (other)
      add(
        ['matrices', mname, 'scenarios'],
        `scenarios "${first}" and "${other}" differ in ${key} (${shown(first)} vs ${shown(other)}): a duet canary is the cluster's backend, installed once for every cell of the matrix — give the canary a matrix of its own`,
      );
  }
}

// maxRepetitions: a duet's sequential pairs (compare/sequential.js). Each look beyond
// `repetitions` spends SEQUENTIAL_LOOK_P of α; half of α at most, or the final test is weak.
function sequentialProblems(mname, m, add) {
  if (m.maxRepetitions === undefined) return;
  const at = ['matrices', mname, 'maxRepetitions'];
  if (m.compare !== 'concurrent')
    return add(at, `applies to compare: concurrent only (a duet's sequential pairs), not compare: ${m.compare}`);
  if (m.alternate)
    return add(at, 'a duet loaded one side at a time (alternate) runs a fixed number of pairs: drop one of the two');
  if (m.maxRepetitions < m.repetitions)
    return add(at, `must be at least repetitions (${m.repetitions}): the pairs every cell runs before it may stop`);
  const alpha = 1 - (m.gate?.confidence ?? GATE_DEFAULTS.confidence);
  const most = Math.floor((alpha / 2 + 1e-12) / SEQUENTIAL_LOOK_P);
  if (m.maxRepetitions - m.repetitions > most)
    add(
      at,
      `${m.maxRepetitions - m.repetitions} looks beyond repetitions (${m.repetitions}) would spend ${((m.maxRepetitions - m.repetitions) * SEQUENTIAL_LOOK_P).toFixed(3)} of α ${alpha.toFixed(3)} (${SEQUENTIAL_LOOK_P} each; at most half of α): maxRepetitions ≤ ${m.repetitions + most}`,
    );
}

const duetTargets = () =>
  Object.entries(TARGETS)
    .filter(([, t]) => t.duet)
    .map(([n]) => n)
    .join(' and ');

// A blocking quantile needs 10 samples beyond it on each side (all repetitions
// together); a matrix that cannot deliver them would gate on nothing, silently.
function tailFeasibility(cfg, mname, m, add) {
  const reps = m.repetitions ?? 1;
  for (const [q, rule] of Object.entries(m.gate?.latency ?? {})) {
    if (!rule.blocking) continue;
    const need = samplesNeeded(q);
    for (const sname of m.scenarios) {
      const s = asRun(cfg, m, sname);
      if (!s || s.script !== 'steady' || !s.rate) continue;
      const seconds = scenarioMs(s).duration / 1000;
      const have = Math.floor(s.rate * seconds * reps);
      // A rate or duration the schema already refused is one problem, said there.
      if (!Number.isFinite(have) || have >= need) continue;
      const longer = Math.ceil(need / (s.rate * reps));
      const moreReps = Math.ceil(need / (s.rate * seconds));
      add(
        ['matrices', mname, 'gate', 'latency', q, 'blocking'],
        `${q} is blocking but scenario "${sname}" gives ${s.rate}/s × ${seconds}s × ${reps} repetition${reps > 1 ? 's' : ''} = ${have} samples per side; gating ${q} needs ≥ ${need} (10 beyond it): e.g. duration ${longer}s, or repetitions ${moreReps}, or make ${q} advisory in this matrix (gate: {latency: {${q}: {blocking: false}}})`,
        fromMatrix(mname, m, ['rate', 'duration']),
        [
          ...['rate', 'duration'].map((k) => ['scenarios', sname, k]),
          ...['rate', 'duration', 'repetitions'].map((k) => ['matrices', mname, k]),
        ],
      );
    }
  }
}

// The matrix fields a problem's values may have come from (config/overrides.js).
function fromMatrix(mname, m, keys) {
  const from = keys.filter((k) => m[k] !== undefined).map((k) => ['matrices', mname, k]);
  return from.length ? from : undefined;
}

const asRun = (cfg, m, name) => (Object.hasOwn(cfg.scenarios, name) ? scenarioAsRun(cfg, m, name) : undefined);

// Names are looked up as own keys only: "constructor" or "__proto__" are not definitions.
function own(obj, key) {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

function list(obj) {
  return Object.keys(obj).join(', ') || '(none)';
}
