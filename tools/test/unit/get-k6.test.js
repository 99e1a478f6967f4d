// Where k6 comes from (tools/scripts/get-k6.sh), with fake curl and go on PATH (the
// process orchestration is what is tested; the real download needs GitHub): the release
// binary when it downloads and its checksum matches; never a build from the AGPL module
// (a fake go records any call); exit 3 (Vegeta runs instead) when it cannot be downloaded;
// a hard error when the checksum does not match.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PINS } from '../../src/version.js';
import { scratchDir } from '../helpers/scratch.js';

const SCRIPT = new URL('../../scripts/get-k6.sh', import.meta.url).pathname;
const V = PINS.k6;
const NAME = `k6-${V}-linux-amd64`;
const fakeK6 = (version) => `#!/bin/sh\necho "k6 ${version} (commit/fake, go1.26, linux/amd64)"\n`;

function world({ release = true, tamper = false, version = V } = {}) {
  const root = scratchDir('tg-getk6-');
  const bin = join(root, 'fakebin');
  const rel = join(root, 'release');
  mkdirSync(bin);
  mkdirSync(join(rel, NAME), { recursive: true });
  if (release) {
    writeFileSync(join(rel, NAME, 'k6'), fakeK6(version), { mode: 0o755 });
    spawnSync('tar', ['-C', rel, '-czf', join(rel, `${NAME}.tar.gz`), NAME]);
    const sum = createHash('sha256')
      .update(readFileSync(join(rel, `${NAME}.tar.gz`)))
      .digest('hex');
    writeFileSync(join(rel, `k6-${V}-checksums.txt`), `${tamper ? '0'.repeat(64) : sum}  ${NAME}.tar.gz\n`);
  }
  // curl -o <file> <url>: the release's file of that name, or "could not resolve host".
  writeFileSync(
    join(bin, 'curl'),
    `#!/bin/sh\nwhile [ $# -gt 1 ]; do [ "$1" = -o ] && out=$2; shift; done\nf="${rel}/$(basename "$1")"\n[ -f "$f" ] || exit 6\ncp "$f" "$out"\n`,
  );
  writeFileSync(
    join(bin, 'go'),
    `#!/bin/sh\necho "$@" >> "${root}/go.log"\nprintf '${fakeK6(V).replace(/\n/g, '\\n')}' > "$GOBIN/k6"\nchmod +x "$GOBIN/k6"\n`,
  );
  writeFileSync(join(bin, 'uname'), '#!/bin/sh\necho x86_64\n');
  for (const f of ['curl', 'go', 'uname']) chmodSync(join(bin, f), 0o755);
  const run = (env = {}) =>
    spawnSync('bash', [SCRIPT, join(root, 'out')], {
      encoding: 'utf8',
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: root, K6_RELEASE_URL: 'https://example.invalid/k6', ...env },
    });
  return { root, run, goCalled: () => existsSync(join(root, 'go.log')) };
}

test('get-k6: the release binary when it downloads and its checksum matches; no build', () => {
  const w = world();
  const r = w.run();
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /release binary, checksum verified/);
  assert.ok(!w.goCalled());
});

test('get-k6: no download (offline machine) -> exit 3 naming Vegeta; the Go module is never built', () => {
  const w = world({ release: false });
  const r = w.run();
  assert.equal(r.status, 3, r.stderr);
  assert.match(r.stderr, /cannot be downloaded here; tailgate uses Vegeta/);
  assert.ok(!w.goCalled(), 'go install of the AGPL module');
  assert.ok(!existsSync(join(w.root, 'out', 'k6')));
});

test('get-k6: a checksum that does not match is refused (exit 4), never a fallback', () => {
  const w = world({ tamper: true });
  const r = w.run();
  assert.equal(r.status, 4);
  assert.match(r.stderr, /does not match the release's checksums \(0{64}\): refusing it/);
  assert.ok(!w.goCalled());
  assert.ok(!existsSync(join(w.root, 'out', 'k6')));
});

test('get-k6: the release must report the pin; K6_SOURCE=source builds nothing', () => {
  const wrong = world({ version: 'v0.0.1' });
  const r = wrong.run();
  assert.equal(r.status, 4);
  assert.match(r.stderr, /does not report/);
  const forced = world();
  assert.equal(forced.run({ K6_SOURCE: 'source' }).status, 0);
  assert.ok(!forced.goCalled(), 'no path builds k6 from its module');
});
