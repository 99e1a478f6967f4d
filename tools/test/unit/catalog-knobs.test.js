// The tuning values are written twice by nature — bench.yaml's knobs (what the user
// asks for) and each controller's overlay (in that chart's own keys). controller.yaml's
// `knobs:` says where each knob lands (or a capped `value` and why, where the knob's
// value breaks the controller); this keeps the two from drifting apart.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';

const ROOT = new URL('../../../', import.meta.url).pathname;
const CATALOG = join(ROOT, 'charts', 'controllers');
const yaml = (file) => parse(readFileSync(file, 'utf8'));

function valueAt(doc, spec) {
  let v = doc;
  for (const key of spec.path) v = v?.[key];
  if (spec.arg) {
    const hit = (v ?? []).find((a) => String(a).startsWith(`${spec.arg}=`));
    return hit === undefined ? undefined : hit.slice(spec.arg.length + 1);
  }
  if (spec.name) return (v ?? []).find((x) => x?.name === spec.name)?.value;
  return v;
}

test("catalog: every tuning knob lands in each overlay with bench.yaml's value, or is omitted with a reason", () => {
  const tunings = yaml(join(ROOT, 'bench.yaml')).tunings;
  const knobNames = Object.keys(yaml(join(ROOT, 'schemas', 'bench.schema.json')).definitions.tuning.properties).filter(
    (k) => k !== 'description',
  );
  const problems = [];
  let checked = 0;
  for (const name of readdirSync(CATALOG)) {
    const dir = join(CATALOG, name);
    if (!existsSync(join(dir, 'overlays'))) continue;
    const { knobs = {} } = yaml(join(dir, 'controller.yaml'));
    for (const k of Object.keys(knobs))
      if (!knobNames.includes(k)) problems.push(`${name}: knobs.${k} is not a tuning knob (${knobNames.join(', ')})`);
    for (const file of readdirSync(join(dir, 'overlays'))) {
      const tuning = file.replace(/\.yaml$/, '');
      if (!tunings[tuning]) continue;
      const overlay = yaml(join(dir, 'overlays', file));
      for (const [knob, want] of Object.entries(tunings[tuning])) {
        if (knob === 'description') continue;
        const spec = knobs[knob];
        if (!spec) problems.push(`${name}/${tuning}: knob ${knob} is not in controller.yaml knobs`);
        else if (spec.omitted) assert.ok(spec.omitted.length > 10, `${name}: knobs.${knob}.omitted says why`);
        else if (spec.value !== undefined && !(spec.why?.length > 10))
          problems.push(`${name}: knobs.${knob}.value needs a why`);
        else if (String(valueAt(overlay, spec)) !== String(spec.value ?? want))
          problems.push(
            `${name}/${tuning}: ${knob} is ${spec.value ?? want} (${spec.value ? 'capped in controller.yaml' : 'bench.yaml'}) but ${valueAt(overlay, spec)} at ${spec.path.join('.')} in ${file}`,
          );
        else checked++;
      }
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(checked >= 6, `${checked} knob values checked`);
});
