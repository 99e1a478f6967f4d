// A use added later: `init --with nightly` in a repository that adopted tailgate once
// refused because bench.yaml existed, so adding a use meant merging by hand. Now it adds
// the use's workflow file where absent and merges the nightly's profile and matrix into
// bench.yaml as added lines only — the same files a first init with that use writes —
// and refuses (nothing written) where it cannot. A first local run's results/ is ignored.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

// Every file init wrote under dir, path -> text.
function files(dir, rel = '') {
  const out = {};
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const p = join(rel, e.name);
    if (e.isDirectory()) Object.assign(out, files(dir, p));
    else out[p] = readFileSync(join(dir, p), 'utf8');
  }
  return out;
}

const init = async (dir, ...args) => {
  const r = await runCli(['init', '--controller', 'traefik', '--dir', dir, ...args]);
  return { ...r, files: files(dir) };
};

test('init, then init --with nightly,dispatch: the same files as a first init --with dispatch,nightly; bench.yaml only gains lines', async () => {
  const later = scratchDir('tg-init-later-');
  const first = await init(later);
  assert.equal(first.code, 0, first.out);
  const added = await init(later, '--with', 'nightly,dispatch');
  assert.equal(added.code, 0, added.out);
  assert.match(
    added.out,
    /bench\.yaml: merged — added profile tailgate-bench and matrix nightly; every other line kept/,
  );
  assert.match(added.out, /tailgate-nightly\.yml: written/);
  assert.match(added.out, /tailgate-dispatch\.yml: written/);
  assert.match(added.out, /nightly: register a self-hosted runner labelled tailgate-bench/);
  // Added lines only: every line of the first bench.yaml is there, in its order.
  const after = added.files['bench.yaml'].split('\n');
  let at = 0;
  for (const line of first.files['bench.yaml'].split('\n')) {
    at = after.indexOf(line, at);
    assert.ok(at >= 0, `kept: ${line}`);
    at++;
  }
  for (const f of Object.keys(first.files))
    if (f !== 'bench.yaml') assert.equal(added.files[f], first.files[f], `${f} is not touched`);

  const once = scratchDir('tg-init-once-');
  assert.equal((await init(once, '--with', 'dispatch,nightly')).code, 0);
  assert.deepEqual(added.files, files(once), 'the same files as init --with dispatch,nightly');
  assert.equal((await runCli(['validate', '--config', join(later, 'bench.yaml')])).code, 0);

  // Again: everything is there, nothing changes.
  const again = await init(later, '--with', 'nightly,dispatch');
  assert.equal(again.code, 0, again.out);
  assert.match(again.out, /bench\.yaml: kept \(it has the tailgate-bench profile and a nightly matrix\)/);
  assert.deepEqual(again.files, added.files);
});

test('init --with dispatch later adds its workflow and leaves bench.yaml alone; no --with is still refused', async () => {
  const dir = scratchDir('tg-init-dispatch-');
  const first = await init(dir);
  const r = await init(dir, '--with', 'dispatch');
  assert.equal(r.code, 0, r.out);
  assert.equal(r.files['bench.yaml'], first.files['bench.yaml']);
  assert.match(r.files['.github/workflows/tailgate-dispatch.yml'], /options: \[local, pr, pr-failover, pr-routes\]/);
  const none = await init(dir);
  assert.equal(none.code, 2, none.out);
  assert.match(
    none.out,
    /bench\.yaml exists; tailgate init never overwrites .*to add a use to it: --with dispatch,nightly/,
  );
});

test("an adopter's own bench.yaml gets the nightly at its own indentation, from its kind matrices; a shape it cannot extend is refused, nothing written", async () => {
  const dir = scratchDir('tg-init-own-');
  await init(dir);
  // Re-indented by the adopter (4 spaces), its gates renamed.
  const own = readFileSync(join(dir, 'bench.yaml'), 'utf8')
    .replace(/^( +)/gm, (s) => s.repeat(2))
    .replace(/^ {4}pr(-failover|-routes)?:$/gm, '    gate$1:');
  writeFileSync(join(dir, 'bench.yaml'), own);
  const r = await init(dir, '--with', 'nightly');
  assert.equal(r.code, 0, r.out);
  const merged = r.files['bench.yaml'];
  assert.match(merged, /\n {4}tailgate-bench: \{ description/);
  assert.match(
    merged,
    /\n {4}nightly:\n {8}target: kind\n {8}profile: tailgate-bench\n {8}controllers: \[traefik\]\n {8}scenarios: \[steady, pod-kill, routes\]\n/,
  );
  assert.equal((await runCli(['validate', '--config', join(dir, 'bench.yaml')])).code, 0);

  const flow = scratchDir('tg-init-flow-');
  await init(flow);
  const text = readFileSync(join(flow, 'bench.yaml'), 'utf8').replace(
    /^profiles:\n {2}(gha-ubuntu-24\.04): (\{[^\n]*\})\n/m,
    'profiles: { $1: $2 }\n',
  );
  writeFileSync(join(flow, 'bench.yaml'), text);
  const refused = await init(flow, '--with', 'nightly');
  assert.equal(refused.code, 2, refused.out);
  assert.match(
    refused.out,
    /cannot add the nightly's lines: its profiles is not a block map; nothing was changed\. Add them by hand/,
  );
  assert.match(refused.out, /tailgate-bench: \{ description/);
  assert.equal(readFileSync(join(flow, 'bench.yaml'), 'utf8'), text);
  assert.ok(!existsSync(join(flow, '.github', 'workflows', 'tailgate-nightly.yml')));
});

test('init ignores results/: a .gitignore written, appended to, or kept', async () => {
  const fresh = scratchDir('tg-init-ignore-');
  const r = await init(fresh);
  assert.match(r.out, /\.gitignore: written/);
  assert.match(r.files['.gitignore'], /^results\/$/m);
  const theirs = scratchDir('tg-init-ignore-own-');
  writeFileSync(join(theirs, '.gitignore'), 'node_modules/');
  await init(theirs);
  assert.equal(readFileSync(join(theirs, '.gitignore'), 'utf8').split('\n')[0], 'node_modules/');
  assert.match(readFileSync(join(theirs, '.gitignore'), 'utf8'), /\nresults\/\n$/);
  const kept = await init(theirs, '--with', 'dispatch');
  assert.match(kept.out, /\.gitignore: kept \(ignores results\/\)/);
});
