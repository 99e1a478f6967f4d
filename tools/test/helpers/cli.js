// Runs the CLI in-process and captures what it prints.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';

export async function runCli(argv) {
  const saved = [console.log, console.error];
  const out = [];
  console.log = (...a) => out.push(a.join(' '));
  console.error = (...a) => out.push(a.join(' '));
  try {
    return { code: await main(argv), out: out.join('\n') };
  } finally {
    [console.log, console.error] = saved;
  }
}

/**
 * `tailgate compare --paired` run from inside dir (so --gate-ref reads dir's repository) on
 * the fixture runs under runs/base and runs/head -> runCli's result, the verdict file and
 * its document.
 */
export async function pairedCompareIn(dir, runs, extra) {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const file = join(dir, `v-${Math.random().toString(36).slice(2)}.json`);
    const r = await runCli([
      'compare',
      '--paired',
      '--base-results',
      join(runs, 'base'),
      '--head-results',
      join(runs, 'head'),
      '--out',
      file,
      ...extra,
    ]);
    return { ...r, file, doc: JSON.parse(readFileSync(file, 'utf8')) };
  } finally {
    process.chdir(cwd);
  }
}
