// The catalog entries (charts/controllers/<name>/controller.yaml) under
// schemas/controller.schema.json: read with `??` defaults, a misspelt key was silently
// ignored — `effectiveConfg:` and no effective configuration, `podSelectr:` and the
// samples of the wrong pods. Now it is refused, naming the file, the line and the key.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { parseBench } from '../../src/config/load.js';
import { CATALOG_DIR, catalogEntry, catalogNames, readCatalogFile } from '../../src/registry/catalog.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

test('catalog: every controller.yaml validates against schemas/controller.schema.json, named as its folder', () => {
  const names = catalogNames();
  assert.ok(names.length >= 5, names.join(', '));
  for (const name of names) {
    const entry = readCatalogFile(join(CATALOG_DIR, name, 'controller.yaml'));
    assert.equal(entry.name, name, `charts/controllers/${name}/controller.yaml name:`);
    // What the run reads of it: the capture it declares, with the format the report reads.
    const { effectiveConfig } = catalogEntry(name, { type: 'helm' });
    assert.ok(effectiveConfig?.file && effectiveConfig.format, `${name}: effectiveConfig with file and format`);
  }
});

test('catalog: the knobs the schema allows are the tuning knobs of bench.yaml', () => {
  const schema = (f) => JSON.parse(readFileSync(join(ROOT, 'schemas', f), 'utf8'));
  const tuning = Object.keys(schema('bench.schema.json').definitions.tuning.properties).filter(
    (k) => k !== 'description',
  );
  assert.deepEqual(schema('controller.schema.json').properties.knobs.propertyNames.enum, tuning);
});

test('catalog: a misspelt key in controller.yaml is refused, naming the file, the line and the key — all at once', () => {
  const text = readFileSync(join(CATALOG_DIR, 'traefik', 'controller.yaml'), 'utf8')
    .replace('\npodSelector:', '\npodSelectr:')
    .replace('effectiveConfig: { args: true,', 'effectiveConfig: { args: true, fromat: args,')
    .replace('  retries: { omitted:', '  retries: { omited:');
  const file = join(scratchDir('tg-catalog-'), 'controller.yaml');
  writeFileSync(file, text);
  const line = (key) => text.split('\n').findIndex((l) => l.includes(key)) + 1;
  assert.throws(
    () => readCatalogFile(file),
    (err) => {
      assert.equal(err.exitCode, 2);
      assert.match(err.message, /controller\.yaml: \d+ problems in the catalog entry/);
      const all = err.details.join('\n');
      assert.ok(all.includes(`${file}:${line('podSelectr:')}: podSelectr: unknown field`), all);
      assert.match(
        all,
        /effectiveConfig\.fromat: unknown field — did you mean "format"\? \(see schemas\/controller\.schema\.json\)/,
      );
      assert.ok(all.includes(`${file}:${line('omited:')}: knobs.retries.omited: unknown field`), all);
      return true;
    },
  );
  // The same entry as written validates: the refusal is the misspelling's.
  assert.deepEqual(
    readCatalogFile(join(CATALOG_DIR, 'traefik', 'controller.yaml')),
    parse(text.replace('podSelectr', 'podSelector').replace(' fromat: args,', '').replace('omited:', 'omitted:')),
  );
});

const kindBench = (controller) => `apiVersion: tailgate/v1
kind: Bench
profiles: { kind: { runner: ubuntu-24.04 } }
controllers:
  ${controller}
scenarios:
  steady: { script: steady, rate: 500, duration: 20s }
matrices:
  pr: { target: kind, profile: kind, controllers: [mine], scenarios: [steady] }
`;

test('catalog: a controller that is not in it says so, with the names it has (not "values file … not found")', () => {
  const refused = (controller) => {
    try {
      parseBench(kindBench(controller), 'bench.yaml');
    } catch (err) {
      return err.details.join('\n');
    }
    assert.fail('loaded');
  };
  const names = catalogNames().join(', ');
  const chart = 'chart: { repo: https://example.org/charts, name: mine, version: 1.0.0 }';
  const unknown = refused(`mine: { type: helm, ${chart} }`);
  assert.ok(
    unknown.includes(`controllers.mine: controller "mine" is not in the catalog (charts/controllers): ${names};`),
    unknown,
  );
  assert.doesNotMatch(unknown, /not found/);
  const misspelt = refused(`mine: { type: helm, catalog: trafik, ${chart} }`);
  assert.match(
    misspelt,
    /:5:\d+: controllers\.mine\.catalog: "trafik" is not in the catalog \(charts\/controllers\): envoy-gateway, /,
  );
  // A controller of the file's own — its chart and its values file — needs no entry.
  const dir = scratchDir('tg-own-');
  writeFileSync(join(dir, 'values.yaml'), 'replicas: 1\n');
  assert.doesNotThrow(() =>
    parseBench(kindBench(`mine: { type: helm, values: values.yaml, ${chart} }`), join(dir, 'bench.yaml')),
  );
});

test('config: a duration the schema refuses says the rule in words, not the regular expression', () => {
  const text = kindBench(
    'mine: { type: helm, catalog: traefik, chart: { repo: https://traefik.github.io/charts, name: traefik, version: 41.3.0 } }',
  );
  let details;
  try {
    parseBench(
      text.replace('duration: 20s', 'duration: 20sec').replace('rate: 500', 'rate: 500, headDelayShare: 5 percent'),
      'bench.yaml',
    );
  } catch (err) {
    details = err.details.join('\n');
  }
  assert.match(
    details,
    /:7:\d+: scenarios\.steady\.duration: must be a duration like 30s, 500ms or 1m30s: a number, then ms, s, m or h, not "20sec"/,
  );
  assert.match(details, /scenarios\.steady\.headDelayShare: must be a percentage like 10% or 0\.5%, not "5 percent"/);
  assert.doesNotMatch(details, /pattern|\^\(/);
});
