// The verdict the baseline-mode goldens (comment.md, terminal.txt) are rendered from, made
// by `tailgate compare` on synthetic runs against baselines committed in a scratch
// repository — produced by the code it documents, so it cannot drift from it. Four cells,
// one of each kind a reviewer meets: a pass, a regression (p99 ×1.46 and transport
// errors), an inconclusive one (k6 failed) and one without a baseline.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './cli.js';
import { makeRunDir } from './run-dir.js';
import { scratchDir } from './scratch.js';

const reps = (seeds, o = {}) => seeds.map((seed) => ({ medianMs: 4, seed, ...o }));

let made = null;

/** The verdict document (made once per process); paths in it are relative to its scratch repository. */
export function goldenVerdict() {
  made ??= make();
  return made;
}

async function make() {
  const work = scratchDir('tg-golden-');
  const saved = process.cwd();
  process.chdir(work);
  try {
    const git = (...a) => execFileSync('git', a, { stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 't@example.invalid');
    git('config', 'user.name', 'test');
    await makeRunDir(
      {
        'nginx-dynamic/default/steady': reps([1, 2, 3]),
        'nginx-reload/default/churn': reps([4, 5, 6]),
        'haproxy-runtime/tuned/churn': reps([7, 8, 9]),
      },
      'run-base',
    );
    await must(['baseline', 'update', '--results', 'run-base'], 0);
    git('add', 'baselines');
    git('commit', '-qm', 'baselines');
    await makeRunDir(
      {
        'nginx-dynamic/default/steady': reps([11, 12, 13]),
        'nginx-reload/default/churn': reps([14, 15, 16], { scale: 1.46, errors: { 503: 18 } }),
        'haproxy-runtime/tuned/churn': [...reps([17, 18]), ...reps([19], { k6ExitCode: 107 })],
        'haproxy-reload/default/steady': reps([20, 21, 22]),
      },
      'run-head',
    );
    await must(['compare', '--results', 'run-head', '--base-ref', 'main', '--out', 'verdict.json'], 1);
    return JSON.parse(readFileSync(join(work, 'verdict.json'), 'utf8'));
  } finally {
    process.chdir(saved);
  }
}

async function must(args, code) {
  const r = await runCli(args);
  if (r.code !== code) throw new Error(`tailgate ${args.join(' ')}: exit ${r.code}, expected ${code}\n${r.out}`);
}
