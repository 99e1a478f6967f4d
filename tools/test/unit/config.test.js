import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadBench, parseBench } from '../../src/config/load.js';
import { InputError } from '../../src/errors.js';
import { TARGET_RULES } from '../../src/registry/target-rules.js';
import { scratchDir } from '../helpers/scratch.js';

const DIR = new URL('../fixtures/config/', import.meta.url);
const fixtures = readdirSync(DIR);

function problems(file) {
  try {
    loadBench(new URL(file, DIR).pathname);
  } catch (err) {
    assert.ok(err instanceof InputError, `expected InputError, got ${err}`);
    assert.equal(err.exitCode, 2);
    return err.details;
  }
  assert.fail(`${file} loaded without errors`);
}

for (const f of fixtures.filter((f) => f.startsWith('valid-'))) {
  test(`config: ${f} loads`, () => {
    const cfg = loadBench(new URL(f, DIR).pathname);
    assert.ok(Object.keys(cfg.matrices).length > 0);
  });
}

for (const f of fixtures.filter((f) => f.startsWith('invalid-'))) {
  test(`config: ${f} is rejected with file:line:col`, () => {
    const details = problems(f);
    assert.ok(details.length > 0);
    for (const d of details) assert.match(d, new RegExp(`${f}:\\d+:\\d+: `));
  });
}

test('config: an unknown key names the key, its line and the rule', () => {
  const [d, ...rest] = problems('invalid-bogus-field.yaml');
  assert.equal(rest.length, 0);
  assert.match(d, /invalid-bogus-field\.yaml:4:\d+: controllers\.nginx-dynamic\.retires: unknown field/);
});

test('config: every problem is reported at once, schema and cross-references together', () => {
  const details = problems('invalid-many.yaml').join('\n');
  assert.match(details, /:1:\d+: apiVersion: must be "tailgate\/v1"/);
  assert.match(details, /:4:\d+: controllers\.x\.variant: must be one of/);
  assert.match(details, /:6:\d+: scenarios\.s\.rate: must be >= 1/);
  assert.match(details, /:6:\d+: scenarios\.s\.duration: must be a duration like 30s/);
  assert.match(details, /:7:\d+: scenarios\.sweep: script "sweep" needs "rates"/);
  assert.match(details, /:9:\d+: matrices\.m\.controllers\.0: unknown controller "y"/);
  assert.match(details, /:9:\d+: matrices\.m\.scenarios\.1: unknown scenario "nope"/);
});

test('config: a helm-only target refuses a local controller', () => {
  assert.match(
    problems('invalid-target-mismatch.yaml').join('\n'),
    /controller "nginx-dynamic" is type "local", target "kind" needs type "helm"/,
  );
});

test('config: YAML syntax errors carry a position', () => {
  assert.match(problems('invalid-yaml-syntax.yaml')[0], /invalid-yaml-syntax\.yaml:\d+:\d+: YAML syntax/);
});

test('config: defaults are applied after validation, not instead of it', () => {
  const cfg = loadBench(new URL('valid-minimal.yaml', DIR).pathname);
  assert.equal(cfg.scenarios.steady.duration, '30s');
  assert.equal(cfg.controllers['nginx-dynamic'].retries, 'on');
  assert.deepEqual(cfg.matrices.local.tunings, ['default']);
  assert.equal(cfg.matrices.local.profile, 'local');
  assert.equal(cfg.gate.latency.p99.blocking, true);
});

test('config: the repository bench.yaml and the README example both load', () => {
  const root = new URL('../../../', import.meta.url);
  loadBench(new URL('bench.yaml', root).pathname);
  const readme = readFileSync(new URL('README.md', root), 'utf8');
  const m = /<!-- example:bench\.yaml -->\s*```yaml\n([\s\S]*?)```/.exec(readme);
  assert.ok(m, 'README.md has an example marked <!-- example:bench.yaml -->');
  const cfg = parseBench(m[1], 'README.md example');
  assert.ok(cfg.matrices.local);
});

test("config: a controller's values file is relative to bench.yaml and stays in its folder (an adopter's repository)", async () => {
  const { mkdirSync, writeFileSync, symlinkSync } = await import('node:fs');
  const { join } = await import('node:path');
  const repo = scratchDir('tg-adopter-');
  mkdirSync(join(repo, 'values'));
  writeFileSync(join(repo, 'values', 'traefik.yaml'), 'deployment: { replicas: 1 }\n');
  symlinkSync('/etc/hostname', join(repo, 'values', 'link.yaml'));
  const bench = (values) =>
    `apiVersion: tailgate/v1\nkind: Bench\ncontrollers:\n  traefik:\n    type: helm\n    chart: { repo: https://traefik.github.io/charts, name: traefik, version: 41.3.0 }\n    values: ${values}\nscenarios:\n  steady: { script: steady, rate: 100, duration: 20s }\nprofiles:\n  gha: { runner: ubuntu-24.04 }\nmatrices:\n  pr: { target: kind, profile: gha, controllers: [traefik], scenarios: [steady] }\n`;
  writeFileSync(join(repo, 'bench.yaml'), bench('values/traefik.yaml'));
  assert.equal(
    loadBench(join(repo, 'bench.yaml')).controllers.traefik.valuesFile,
    join(repo, 'values', 'traefik.yaml'),
  );
  for (const bad of ['../outside.yaml', 'values/link.yaml', '/etc/hostname']) {
    writeFileSync(join(repo, 'bench.yaml'), bench(bad));
    assert.throws(
      () => loadBench(join(repo, 'bench.yaml')),
      (e) =>
        e instanceof InputError && e.details.some((d) => /controllers\.traefik\.values: .* must stay inside/.test(d)),
      bad,
    );
  }
});

test("config: the catalog's rules are validated — a Gateway-only controller asked for an Ingress, a tuning with no overlay, each reported once with its line", () => {
  const text = `apiVersion: tailgate/v1
kind: Bench
controllers:
  eg:
    type: helm
    catalog: envoy-gateway
    chart: { repo: oci://docker.io/envoyproxy, name: gateway-helm, version: v1.9.1 }
    routing: ingress
  traefik:
    type: helm
    chart: { repo: https://traefik.github.io/charts, name: traefik, version: 41.3.0 }
tunings:
  fast: { keepaliveRequests: 5 }
scenarios:
  steady: { script: steady, rate: 100, duration: 20s }
profiles:
  gha: { runner: ubuntu-24.04 }
matrices:
  pr: { target: kind, profile: gha, controllers: [eg, traefik], tunings: [default, fast], scenarios: [steady] }
  nightly: { target: kind, profile: gha, controllers: [eg], scenarios: [steady] }
`;
  assert.throws(
    () => parseBench(text, 'bench.yaml'),
    (e) => {
      assert.deepEqual(e.details, [
        'bench.yaml:8:14: controllers.eg.routing: routing: ingress, but envoy-gateway routes only through Gateway API (set routing: gateway, or leave it out)',
        `bench.yaml:19:84: matrices.pr.tunings.1: controller "traefik": no overlay for tuning "fast" (expected ${new URL('../../../charts/controllers/traefik/overlays/fast.yaml', import.meta.url).pathname}); tunings map to each controller's own keys, see charts/controllers/README.md`,
      ]);
      return e instanceof InputError;
    },
  );
  assert.doesNotThrow(() =>
    parseBench(text.replace('    routing: ingress\n', '').replace(', fast]', ']'), 'bench.yaml'),
  );
});

test("config: a profile's maxRate refuses a matrix whose k6 would run above it (a duet's k6 runs both sides), before any cluster", () => {
  const text = (rate) => `apiVersion: tailgate/v1
kind: Bench
profiles:
  small: { runner: ubuntu-24.04, maxRate: 1000 }
controllers:
  traefik:
    type: helm
    chart: { repo: https://traefik.github.io/charts, name: traefik, version: 41.3.0 }
scenarios:
  steady: { script: steady, rate: ${rate}, duration: 45s }
matrices:
  pr: { target: kind, profile: small, controllers: [traefik], scenarios: [steady], repetitions: 3, compare: concurrent }
`;
  assert.doesNotThrow(() => parseBench(text(500), 'bench.yaml'));
  assert.throws(
    () => parseBench(text(600), 'bench.yaml'),
    (e) =>
      e.exitCode === 2 &&
      e.details.some((d) =>
        /scenarios\.steady\.rate: 600\/s per side is 1200\/s for the one k6 of a duet, over profile "small"'s maxRate 1000/.test(
          d,
        ),
      ),
  );
});

test('config: a rate the schema refuses is one problem, not also NaN samples under every matrix (seen in a PR comment)', () => {
  const details = problems('invalid-rate-word.yaml');
  assert.equal(details.length, 1, details.join('\n'));
  assert.match(details[0], /:4:\d+: scenarios\.steady\.rate: must be integer/);
});

test('config: a cross-reference check that throws on a schema-valid file is exit 4 naming the check, never a pass', () => {
  const text = readFileSync(new URL('../../../bench.yaml', import.meta.url), 'utf8');
  const boom = () => {
    throw new TypeError("Cannot read properties of undefined (reading 'x')");
  };
  assert.throws(
    () => parseBench(text, 'bench.yaml', { checks: boom }),
    (e) =>
      e.exitCode === 4 &&
      /bench\.yaml: the cross-reference checks \(config\/validate\.js\) failed on a schema-valid config/.test(
        e.message,
      ),
  );
  // On a file the schema already refuses, a crash is the broken file's: its problems are reported (exit 2).
  assert.throws(
    () => parseBench(`${text}\nbogus: 1\n`, 'bench.yaml', { checks: boom }),
    (e) => e.exitCode === 2 && /bogus: unknown field/.test(e.details.join('\n')),
  );
});

test('config: validation by section — validate.js names no target; each target keeps its own rules in its problems hook (registry/target-rules.js)', () => {
  const src = readFileSync(new URL('../../src/config/validate.js', import.meta.url), 'utf8');
  assert.doesNotMatch(src, /\.target\s*[!=]==?\s*'/, 'a target-specific rule in config/validate.js');
  for (const [name, t] of Object.entries(TARGET_RULES))
    assert.equal(typeof t.problems, 'function', `target ${name} has its problems hook`);
});
