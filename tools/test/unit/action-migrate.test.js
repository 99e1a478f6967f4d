// The composite action's `migrate` command (examples/migration's workflow): inputs arrive
// as environment variables and are kept to their character set before any use; the
// verdict is tailgate migrate's own exit.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { scratchDir } from '../helpers/scratch.js';

const ACTION = new URL('../../ci/action.sh', import.meta.url).pathname;

test('action migrate: a candidate or margin outside its character set is refused (exit 2) before tailgate runs; valid ones reach tailgate migrate', () => {
  const dir = scratchDir('tg-action-migrate-');
  const run = (env) =>
    spawnSync('bash', [ACTION], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        TG_COMMAND: 'migrate',
        MATRIX: 'migration',
        FROM: 'ingress-nginx',
        ...env,
      },
    });
  try {
    for (const [env, why] of [
      [{ TO: 'traefik;id' }, /to must be <controller>\[:<tuning>\]/],
      [{ TO: '$(id)' }, /to must be/],
      [{ TO: 'traefik', MARGIN: 'p99=10% --out /' }, /margin must look like/],
      [{ TO: 'traefik', FROM: 'a b' }, /from must be names from bench.yaml/],
    ]) {
      const r = run(env);
      assert.equal(r.status, 2, `${JSON.stringify(env)}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout + r.stderr, why);
    }
    // Valid inputs reach tailgate migrate: here without a bench.yaml, its own bad-input exit.
    const r = run({ TO: 'traefik-gateway:tuned', MARGIN: 'p99=10%,errors=10%', DUET: 'true' });
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /bench\.yaml/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
