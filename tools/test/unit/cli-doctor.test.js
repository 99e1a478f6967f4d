// tailgate doctor: besides the tools, whether kind's host ports are free (a run moves past
// busy ones, targets/kube/host-ports.js) — said before a run has to.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const CLI = join(new URL('../../../', import.meta.url).pathname, 'tools', 'bin', 'tailgate.js');

test('cli doctor: one line on kind host ports, free or taken and where runs go instead', () => {
  const r = spawnSync(process.execPath, [CLI, 'doctor'], { encoding: 'utf8', timeout: 60_000 });
  assert.ok([0, 4].includes(r.status), r.stderr);
  assert.match(
    r.stdout,
    /^(✓ kind host ports 18080, 18081 free on 127\.0\.0\.1|! kind host ports? [\d, ]+ (is|are) in use on 127\.0\.0\.1: kind runs take \d+, \d+ instead)$/m,
  );
});
