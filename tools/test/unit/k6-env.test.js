// k6/lib/env.js keeps no defaults of its own (it had a third set: duration 10s where
// config says 30s): every value a script reads comes from the run, and a script refuses
// without one, naming it. Here: each builder of k6's environment — engines/k6/plan.js k6Env (local
// runs, a kind cell's k6, perf's command) and the in-cluster Job's manifest — passes every
// variable env.js lists for the script, and env.js reads back what the scenario says.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadFor, NEEDS, OPTIONAL } from '../../../k6/lib/env.js';
import { parseBench } from '../../src/config/load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { cellLoad } from '../../src/engines/load.js';
import { k6Env } from '../../src/engines/k6/plan.js';
import { jobManifestFor } from '../../src/targets/kube/load-job-manifest.js';

const K6 = new URL('../../../k6/', import.meta.url).pathname;
const SCRIPTS = Object.keys(NEEDS).filter((k) => k !== 'all');

// One scenario per script, each with only what bench.yaml must write: the rest is config's
// defaults, which k6 must get from the run.
const cfg = parseBench(
  `apiVersion: tailgate/v1
kind: Bench
controllers:
  nginx-reload: { type: local, variant: nginx-reload }
scenarios:
  steady: { script: steady, rate: 300 }
  sequential: { script: sequential, pause: 500ms }
  sweep: { script: sweep, rates: [100, 200], connections: [10, 50] }
  saturation: { script: saturation, maxRate: 800, slo: { p99: 50ms } }
matrices:
  all: { target: local, controllers: [nginx-reload], scenarios: [steady, sequential, sweep, saturation] }
`,
  'bench.yaml',
);
const cells = Object.fromEntries(planMatrix(cfg, 'all').cells.map((c) => [c.scenario.script, c]));

/** The environment each builder gives k6 for a script's cell. */
function builtEnvs(script) {
  const scenario = cellLoad(cells[script]);
  const job = jobManifestFor(scenario, 'k6').spec.template.spec.containers[0].env;
  return {
    'engines/k6/plan.js k6Env': k6Env(scenario, { url: 'http://127.0.0.1:18080', summary: '/r/k6-summary.json' }),
    'targets/kube/load-job-manifest.js': Object.fromEntries(job.map((e) => [e.name, e.value])),
  };
}

function withEnv(env, fn) {
  globalThis.__ENV = env;
  try {
    return fn();
  } finally {
    delete globalThis.__ENV;
  }
}

test('k6 env: every builder passes every variable env.js requires of each script', () => {
  assert.deepEqual(
    SCRIPTS.sort(),
    readdirSync(join(K6, 'scenarios'))
      .map((f) => f.replace(/\.js$/, ''))
      .sort(),
  );
  for (const script of SCRIPTS)
    for (const [builder, env] of Object.entries(builtEnvs(script))) {
      const missing = [...NEEDS.all, ...NEEDS[script]].filter((n) => typeof env[n] !== 'string' || env[n] === '');
      assert.deepEqual(missing, [], `${builder} for ${script}.js`);
    }
});

test('k6 env: env.js reads back the scenario as config made it (its defaults included)', () => {
  for (const script of SCRIPTS) {
    const scenario = cellLoad(cells[script]);
    const load = withEnv(builtEnvs(script)['engines/k6/plan.js k6Env'], () => loadFor(script));
    assert.ok(Object.keys(load).length >= 2, script);
    for (const [field, value] of Object.entries(load)) assert.deepEqual(value, scenario[field], `${script}.${field}`);
  }
  // The values env.js once defaulted on its own: config's, and what a run passes.
  const steady = withEnv(builtEnvs('steady')['engines/k6/plan.js k6Env'], () => loadFor('steady'));
  assert.deepEqual(steady, { duration: '30s', warmup: '0s', rate: 300, vus: 50, maxVus: cells.steady.scenario.maxVus });
});

test('k6 env: a script started without a value the run passes refuses, naming every one missing', () => {
  for (const script of SCRIPTS)
    for (const name of [...NEEDS.all, ...NEEDS[script]]) {
      const env = { ...builtEnvs(script)['engines/k6/plan.js k6Env'] };
      delete env[name];
      assert.throws(
        () => withEnv(env, () => loadFor(script)),
        (e) => e.message.startsWith(`k6/scenarios/${script}.js: ${name} not set: `),
        `${script} without ${name}`,
      );
    }
  assert.throws(
    () => withEnv({}, () => loadFor('steady')),
    /TG_TARGET_URL, TG_HOST, .*TG_RATE, TG_VUS, TG_MAX_VUS not set/,
  );
});

test('k6 env: every variable a k6 file reads is listed in env.js, each script loads through it', () => {
  const files = ['lib', 'scenarios'].flatMap((d) =>
    readdirSync(join(K6, d)).map((f) => [`${d}/${f}`, readFileSync(join(K6, d, f), 'utf8')]),
  );
  const listed = new Set([...Object.values(NEEDS).flat(), ...OPTIONAL]);
  for (const [file, text] of files) {
    for (const [name] of text.matchAll(/TG_[A-Z_]+/g)) assert.ok(listed.has(name), `${file}: ${name} not in env.js`);
    if (file !== 'lib/env.js') assert.doesNotMatch(text, /__ENV/, `${file} reads __ENV itself`);
    // lib/ reads for every script: what it needs is in NEEDS.all.
    for (const [, name] of text.matchAll(/\bneed\('(TG_[A-Z_]+)'\)/g))
      assert.ok(file.startsWith('lib/') && NEEDS.all.includes(name), `${file}: need('${name}')`);
    for (const [, name] of text.matchAll(/\boptional\('(TG_[A-Z_]+)'\)/g))
      assert.ok(OPTIONAL.includes(name), `${file}: optional('${name}')`);
    const script = file.match(/^scenarios\/(\w+)\.js$/)?.[1];
    if (script) assert.match(text, new RegExp(`loadFor\\('${script}'\\)`), file);
  }
});
