// "A duet's one k6 runs twice the rate" is one rule (config/duet-load.js): validation
// refuses a rate over a profile's maxRate exactly when the k6 a planned cell starts would
// run above it — whether the duet comes from compare: concurrent, --ab-head or alternates
// its sides. Before, validation keyed on compare: concurrent and the runner on
// concurrent && !alternate, and an alternate matrix was checked at twice its k6's rate.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBench } from '../../src/config/load.js';
import { k6Load, oneK6BothSides } from '../../src/config/duet-load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { cellLoad } from '../../src/engines/load.js';
import { k6Env } from '../../src/engines/k6/plan.js';

const CAP = 1000;

const bench = (rate, cap) => `apiVersion: tailgate/v1
kind: Bench
profiles:
  small: { runner: ubuntu-24.04${cap ? `, maxRate: ${cap}` : ''} }
controllers:
  nginx-reload: { type: local, variant: nginx-reload }
  nginx-dynamic: { type: local, variant: nginx-dynamic }
  traefik:
    type: helm
    chart: { repo: https://traefik.github.io/charts, name: traefik, version: 41.3.0 }
  haproxy-ingress:
    type: helm
    chart: { repo: https://haproxy-ingress.github.io/charts, name: haproxy-ingress, version: 0.14.7 }
scenarios:
  steady: { script: steady, rate: ${rate}, duration: 45s }
  split: { script: steady, rate: ${rate}, duration: 45s, runners: 2 }
matrices:
  solo: { target: local, profile: small, controllers: [nginx-reload], scenarios: [steady] }
  runners: { target: local, profile: small, controllers: [nginx-reload], scenarios: [split] }
  local-duet: { target: local, profile: small, controllers: [nginx-reload], scenarios: [steady], compare: concurrent, head: nginx-dynamic }
  kind-duet: { target: kind, profile: small, controllers: [traefik], scenarios: [steady], compare: concurrent, head: haproxy-ingress }
  kind-alternate: { target: kind, profile: small, controllers: [traefik], scenarios: [steady], compare: concurrent, head: haproxy-ingress, alternate: true }
`;

// [case, matrix, overrides, what one k6 runner carries per scenario rate]
const CASES = [
  ['one side', 'solo', {}, 1],
  ['two runners share the rate', 'runners', {}, 0.5],
  ['--ab-head: a duet from the command line', 'solo', { abHead: 'nginx-dynamic' }, 2],
  ['compare: concurrent on local', 'local-duet', {}, 2],
  ['compare: concurrent on kind', 'kind-duet', {}, 2],
  ['alternate: one side at a time', 'kind-alternate', {}, 1],
  // The flag lands on the matrix before validation (config/overrides.js); it was checked at twice.
  ['--alternate from the command line', 'kind-duet', { alternate: true }, 1],
];

/** Does validation refuse this matrix's rate against the profile's maxRate? */
function refused(rate, matrix, overrides) {
  try {
    parseBench(bench(rate, CAP), 'bench.yaml', { matrix, overrides });
    return false;
  } catch (err) {
    assert.equal(err.exitCode, 2, String(err));
    assert.ok(
      err.details.every((d) => /maxRate/.test(d)),
      err.details.join('\n'),
    );
    return err.details.some((d) => d.includes(`matrix "${matrix}"`));
  }
}

/** The --rate each k6 runner of the matrix's first cell gets, as engines/k6/plan.js builds its env. */
function k6RatePerRunner(rate, matrix, overrides) {
  const cfg = parseBench(bench(rate), 'bench.yaml', { matrix, overrides });
  const cell = planMatrix(cfg, matrix, overrides).cells[0];
  const env = k6Env(cellLoad(cell), { url: 'http://a', urlB: cell.concurrent ? 'http://b' : null, summary: 's' });
  return Number(env.TG_RATE) / (cell.scenario.runners ?? 1);
}

for (const [what, matrix, overrides, factor] of CASES)
  test(`duet load: validation's maxRate check and k6's --rate agree — ${what}`, () => {
    for (const rate of [400, 500, 501, 1000, 1001, 2000, 2001]) {
      const k6 = k6RatePerRunner(rate, matrix, overrides);
      assert.equal(k6, rate * factor, `${rate}/s: k6 runs ${k6}/s per runner`);
      assert.equal(refused(rate, matrix, overrides), k6 > CAP, `${rate}/s per side, ${k6}/s per k6 runner`);
    }
  });

test('duet load: one k6 for both sides doubles the rate and the starting VUs, under the scenario’s ceiling', () => {
  const s = { rate: 500, vus: 500, maxVus: 2000 };
  assert.deepEqual(k6Load(s, { duet: true }), { rate: 1000, vus: 1000, maxVus: 2000 });
  assert.equal(k6Load(s, { duet: true, alternate: true }), s, 'alternate: the scenario itself');
  assert.equal(k6Load(s, { duet: false }), s);
  assert.equal(oneK6BothSides({ duet: { name: 'head' } }), true, "a cell's concurrent side counts as a duet");
});
