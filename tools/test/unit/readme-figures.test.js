// The README's first screen states no figure it cannot back: each is printed by the command
// it names, or marked as a model. "22–31 runner-minutes (plan prints it)" once named a
// command that printed 7.8–13.8 for one gate and the sum nowhere.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const paragraph = (start) => README.slice(README.indexOf(start)).split('\n\n')[0].replace(/\n/g, ' ');

test("README's PR cost is what `tailgate plan --matrix pr,pr-failover,pr-routes` prints for init's Traefik bench.yaml, and is called a model", async () => {
  const text = paragraph('**What a PR costs**');
  const command = 'npx tailgate plan --matrix pr,pr-failover,pr-routes';
  assert.ok(text.includes(`\`${command}\``), `the paragraph names ${command}`);
  assert.match(text, /a model, not a measurement/);
  const wait = /\*\*(\d+–\d+) minutes\*\*/.exec(text)?.[1];
  const used = /\*\*(\d+–\d+) runner-minutes\*\*/.exec(text)?.[1];
  assert.ok(wait && used, text);
  // examples/adopter is what init --controller traefik writes (init.test.js).
  const config = join(ROOT, 'examples', 'adopter', 'bench.yaml');
  const r = await runCli(['plan', '--config', config, '--matrix', command.split(' --matrix ')[1]]);
  assert.equal(r.code, 0, r.out);
  const total = r.out.trim().split('\n').at(-1);
  assert.match(total, new RegExp(`a PR waits ≈ ${wait} min \\(the longest job\\) and uses ≈ ${used} runner-minutes`));
  assert.match(total, /a model, not a measurement/);
});

test("README's make bench duration is plan's model for the local matrix, named as such", async () => {
  const minutes = /in about (\d+) minutes \(plan's model: `npx tailgate plan --matrix local`\)/.exec(
    README.replace(/\n/g, ' '),
  )?.[1];
  assert.ok(minutes, 'README names the command its make bench minutes come from');
  const r = await runCli(['plan', '--matrix', 'local', '--config', join(ROOT, 'bench.yaml')]);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, new RegExp(`longest job ≈ ${minutes} min`));
});

test("README's evidence says how it was made: one run's pairs regrouped, the change laid on afterwards", () => {
  const text = paragraph('**What it caught**');
  assert.match(text, /one run's pairs regrouped as 10 PRs/);
  assert.match(text, /one run's evidence, not 10 independent PRs/);
  assert.match(text, /laid on the A\/A pairs afterwards/);
  assert.match(text, /Simulated/);
});

test('README says `npx tailgate setup` needs apt-get and sudo', () => {
  const line = README.split('\n').find((l) => l.startsWith('npx tailgate setup'));
  assert.match(line, /needs apt-get \(Debian\/Ubuntu\) and sudo/);
});
