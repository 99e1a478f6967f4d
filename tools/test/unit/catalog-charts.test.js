// Every controller's catalog entry against its real chart at the pinned version: the
// archive offline runs install (the charts folder, sha256 checked by the run's own code),
// rendered with values.yaml, the offline values, every overlay, the duet sides and the
// gateway values, validated against the Kubernetes schemas and the chart's own values
// schema; and every key our files set is in `verified:`, declared by the chart and changes
// what it renders. A key the chart silently ignores fails here, not on a cluster.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';
import { PINS } from '../../src/version.js';
import { ROOT, SCHEMAS, assertValid, chartFromTemplate, controllerChart, upstreamChart } from '../helpers/charts.js';
import {
  declared,
  getPath,
  ignoredBecause,
  leafPaths,
  mergeValues,
  readYaml,
  renderWith,
} from '../helpers/chart-keys.js';
import { scratchDir } from '../helpers/scratch.js';

const CATALOG = join(ROOT, 'charts', 'controllers');
const NAMES = readdirSync(CATALOG).filter((n) => existsSync(join(CATALOG, n, 'controller.yaml')));
const ARGS = ['--kube-version', PINS.kubernetes, '-n', 'tailgate-ingress'];

// The value sets a run can install: the base (values.yaml + offline values), and the base
// with each overlay, each duet side, the gateway values.
function valueSets(name, entry) {
  const dir = join(CATALOG, name);
  const base = ['values.yaml', 'offline-values.yaml'].map((f) => join(dir, f)).filter(existsSync);
  const extras = [
    ...(existsSync(join(dir, 'overlays'))
      ? readdirSync(join(dir, 'overlays')).map((f) => join(dir, 'overlays', f))
      : []),
    ...(entry.duet ? [join(dir, entry.duet.a), join(dir, entry.duet.b)] : []),
    ...(entry.gateway?.values ? [join(dir, entry.gateway.values)] : []),
    ...(entry.duet?.gatewayA ? [join(dir, entry.duet.gatewayA), join(dir, entry.duet.gatewayB)] : []),
  ];
  // A Gateway API duet's two sides as a run installs them.
  const duetGateway = entry.duet?.gatewayA
    ? ['a', 'b'].map((s) => [
        ...base,
        join(dir, entry.gateway.values),
        join(dir, entry.duet[s]),
        join(dir, entry.duet[`gateway${s.toUpperCase()}`]),
      ])
    : [];
  return [base, ...extras.map((e) => [...base, e]), ...duetGateway].map((files) => ({
    label: files.map((f) => f.slice(dir.length + 1)).join(' + '),
    values: mergeValues(...files.map(readYaml)),
  }));
}

// A values schema whose Kubernetes $refs point at a remote copy of the OpenAPI
// definitions (NGINX Ingress Controller's) checks offline against the same definitions
// setup generated from the pinned Kubernetes release.
function localizeSchema(chartDir) {
  const file = join(chartDir, 'values.schema.json');
  if (!existsSync(file)) return null;
  let text = readFileSync(file, 'utf8');
  const remote =
    /https:\/\/raw\.githubusercontent\.com\/[\w.-]+\/kubernetes-json-schema\/[\w.-]+\/v[\d.]+\/_definitions\.json#/g;
  if (remote.test(text)) {
    const { definitions } = JSON.parse(readFileSync(join(SCHEMAS, '_definitions.json'), 'utf8'));
    const schema = JSON.parse(text.replace(remote, '#'));
    schema.definitions = { ...definitions, ...schema.definitions };
    text = JSON.stringify(schema);
    writeFileSync(file, text);
  }
  assert.doesNotMatch(text, /"\$ref":\s*"https?:/, 'no $ref leaves the machine');
  return JSON.parse(text);
}

// The charts a controller's values go to: its own, and for Envoy Gateway our data plane
// chart beside gateway-helm (from its Go module, the values template filled in).
function chartsOf(name, entry) {
  if (entry.upstream) {
    const src = upstreamChart(entry.upstream);
    assert.ok(src, `${name}: the chart inside its Go module`);
    const chart = chartFromTemplate(src, entry.upstream.valuesTemplate, {
      version: entry.chart.version,
      appVersion: entry.upstream.version,
    });
    return [
      { dir: chart, args: ARGS },
      { dir: join(CATALOG, name, entry.dataplane), args: [...ARGS, '--set-string', 'tuning=default'] },
    ];
  }
  const c = controllerChart(name);
  if (c.skip) return { skip: c.skip };
  return [{ dir: c.dir, args: ARGS, schema: localizeSchema(c.dir) }];
}

// A tuning switch is a rollout. On a one-node kind cluster a Deployment whose pods hold a
// hostPort can replace its pod only if the old one goes first: no surge (Kubernetes'
// default 25%/25% rounds to surge 1, unavailable 0 for one replica — the new pod stays
// Pending on the taken port and `helm upgrade --wait` hangs), or Recreate.
function rolloutProblem(doc) {
  if (doc.kind !== 'Deployment') return null;
  const ports = (doc.spec?.template?.spec?.containers ?? []).flatMap((c) => c.ports ?? []);
  if (!ports.some((p) => p.hostPort)) return null;
  const s = doc.spec.strategy ?? {};
  if (s.type === 'Recreate') return null;
  const replicas = doc.spec.replicas ?? 1;
  const count = (v, dflt, round) =>
    v === undefined
      ? count(dflt, 0, round)
      : /%$/.test(String(v))
        ? round((parseFloat(v) / 100) * replicas)
        : Number(v);
  const surge = count(s.rollingUpdate?.maxSurge, '25%', Math.ceil);
  const unavailable = count(s.rollingUpdate?.maxUnavailable, '25%', Math.floor);
  return surge === 0 && unavailable >= 1
    ? null
    : `${doc.metadata?.name}: hostPort with maxSurge ${surge} / maxUnavailable ${unavailable} on ${replicas} replica(s)`;
}

for (const name of NAMES) {
  const entry = parse(readFileSync(join(CATALOG, name, 'controller.yaml'), 'utf8'));

  test(`catalog: ${name} — unverified is empty and every key its files set is verified`, () => {
    assert.deepEqual(entry.unverified ?? [], [], `${name}: controller.yaml unverified:`);
    assert.ok(Array.isArray(entry.verified) && entry.verified.length, `${name}: verified: lists keys`);
    for (const k of entry.verified)
      assert.match(k, /^[\w-]+(\.[\w-]+)*$/, `${name}: verified key "${k}" is a key path`);
    const set = new Set(valueSets(name, entry).flatMap((s) => leafPaths(s.values)));
    const uncovered = [...set].filter((p) => !entry.verified.some((k) => p === k || p.startsWith(`${k}.`)));
    assert.deepEqual(uncovered, [], `${name}: keys set in its files but not in verified:`);
  });

  if (!entry.upstream)
    test(`catalog: ${name} chart ${entry.chart.version} renders with every value set, valid for Kubernetes ${PINS.kubernetes} and for the chart's values schema`, (t) => {
      const charts = chartsOf(name, entry);
      if (charts.skip) return t.skip(charts.skip);
      const [chart] = charts;
      for (const { label, values } of valueSets(name, entry)) {
        let out;
        try {
          out = renderWith(chart.dir, values, chart.args);
        } catch (err) {
          assert.fail(`${name} with ${label}: ${err.message}`);
        }
        const docs = parseAllDocuments(out)
          .map((d) => d.toJS())
          .filter((d) => d?.kind);
        assert.ok(docs.length, `${name} with ${label}: renders objects`);
        assertValid(docs);
        assert.deepEqual(
          docs.map(rolloutProblem).filter(Boolean),
          [],
          `${name} with ${label}: cannot roll out on one node`,
        );
      }
    });

  test(`catalog: ${name} — every verified key is declared by the chart and changes what it renders`, (t) => {
    const charts = chartsOf(name, entry);
    if (charts.skip) return t.skip(charts.skip);
    const sets = valueSets(name, entry);
    const problems = [];
    for (const key of entry.verified) {
      const owner = charts.find((c) => declared(c.dir, key, c.schema));
      if (!owner) {
        problems.push(`${key}: not declared by the chart (values.yaml or values schema)`);
        continue;
      }
      const set = sets.find((s) => getPath(s.values, key) !== undefined);
      if (!set) {
        problems.push(`${key}: set by none of the catalog's files`);
        continue;
      }
      const why = ignoredBecause(owner.dir, set.values, key, owner.args);
      if (why) problems.push(`${key} (${set.label}): ${why}`);
    }
    assert.deepEqual(problems, [], `${name}: keys the chart does not honour`);
  });
}

test('catalog: the key check can fail — Traefik 41 ignores service.type', (t) => {
  const c = controllerChart('traefik');
  if (c.skip) return t.skip(c.skip);
  const values = mergeValues(readYaml(join(CATALOG, 'traefik', 'values.yaml')), { service: { type: 'ClusterIP' } });
  assert.match(ignoredBecause(c.dir, values, 'service.type', ARGS), /changes what the chart renders/);
  assert.equal(ignoredBecause(c.dir, values, 'service.spec.type', ARGS), null);
});

test('catalog: offline, a missing or altered chart archive is one line naming the file and the pin', async () => {
  const { copyFileSync, symlinkSync } = await import('node:fs');
  const { verifiedArchive } = await import('../../src/registry/chart-archive.js');
  const entry = parse(readFileSync(join(CATALOG, 'haproxy-ingress', 'controller.yaml'), 'utf8'));
  const dir = scratchDir('tg-charts-');
  const env = { TAILGATE_CHARTS_DIR: dir };
  const err = (fn) => {
    try {
      fn();
    } catch (e) {
      return e;
    }
    assert.fail('expected an error');
  };
  const missing = err(() => verifiedArchive(entry.chart, { env, where: 'controller.yaml chart.sha256' }));
  assert.equal(missing.exitCode, 2);
  assert.match(
    missing.message,
    new RegExp(
      `offline chart ${dir}/haproxy-ingress-0\\.14\\.7\\.tgz: missing; expected haproxy-ingress 0\\.14\\.7 with sha256 ${entry.chart.sha256}`,
    ),
  );
  assert.doesNotMatch(missing.message, /\n/);
  writeFileSync(join(dir, 'haproxy-ingress-0.14.7.tgz'), 'not a chart');
  const wrong = err(() => verifiedArchive(entry.chart, { env }));
  assert.match(wrong.message, /sha256 [0-9a-f]{64}, not the pinned one/);
  assert.doesNotMatch(wrong.message, /not a chart/, 'never echoes the file');
  // A link out of the folder is refused even when it points at the right bytes.
  const other = scratchDir('tg-elsewhere-');
  const real = controllerChart('haproxy-ingress');
  if (!real.skip) {
    const { chartsDir } = await import('../../src/registry/chart-archive.js');
    copyFileSync(join(chartsDir(), 'haproxy-ingress-0.14.7.tgz'), join(other, 'x.tgz'));
    const d2 = scratchDir('tg-charts-');
    symlinkSync(join(other, 'x.tgz'), join(d2, 'haproxy-ingress-0.14.7.tgz'));
    assert.match(
      err(() => verifiedArchive(entry.chart, { env: { TAILGATE_CHARTS_DIR: d2 } })).message,
      /a link that leaves the charts folder/,
    );
  }
  assert.match(
    err(() => verifiedArchive({ ...entry.chart, version: '../../etc/passwd' }, { env })).message,
    /cannot name a file in the charts folder/,
  );
});

test("catalog: NGINX Ingress Controller's values schema is checked offline (its Kubernetes $refs point at the local definitions) and can refuse", (t) => {
  const entry = parse(readFileSync(join(CATALOG, 'nginx-ingress', 'controller.yaml'), 'utf8'));
  const charts = chartsOf('nginx-ingress', entry);
  if (charts.skip) return t.skip(charts.skip);
  const [chart] = charts;
  const base = readYaml(join(CATALOG, 'nginx-ingress', 'values.yaml'));
  assert.doesNotThrow(() => renderWith(chart.dir, base, chart.args));
  // A Kubernetes type the schema takes from the definitions: tolerations is a list.
  const bad = mergeValues(base, { controller: { tolerations: 'all' } });
  assert.throws(
    () => renderWith(chart.dir, bad, chart.args),
    (err) => /tolerations/.test(err.message) && !/HTTP/.test(err.message),
  );
});

test("catalog: offline charts install from the unpacked folder, as helm packages a release — Traefik's crds/kustomization.yaml (left out by its .helmignore) is not applied as a CRD", async (t) => {
  const { spawnSync } = await import('node:child_process');
  const { unpackChart, verifiedArchive } = await import('../../src/registry/chart-archive.js');
  const { helm } = await import('../helpers/charts.js');
  const entry = parse(readFileSync(join(CATALOG, 'traefik', 'controller.yaml'), 'utf8'));
  let archive;
  try {
    archive = verifiedArchive(entry.chart);
  } catch (err) {
    return t.skip(err.message);
  }
  const kinds = (chart) =>
    parseAllDocuments(
      spawnSync(helm, ['template', 't', chart, '--include-crds', ...ARGS], { encoding: 'utf8', maxBuffer: 64 << 20 })
        .stdout,
    )
      .map((d) => d.toJS()?.kind)
      .filter(Boolean);
  assert.ok(kinds(archive).includes('Kustomization'), 'the trap: from the archive helm takes it for a CRD');
  const dir = unpackChart(archive, join(scratchDir('tg-unpack-'), 'x'), 'traefik');
  const fromDir = kinds(dir);
  assert.ok(!fromDir.includes('Kustomization'));
  assert.ok(fromDir.includes('CustomResourceDefinition'), "the chart's own CRDs stay");
});
