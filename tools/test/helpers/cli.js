// Runs the CLI in-process and captures what it prints.
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
