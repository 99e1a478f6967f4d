#!/usr/bin/env node
// The CLI's stdout and stderr are a job log in a workflow, and text from artifacts reaches
// them (cell errors, folder and field names, the verdict table): the boundary goes up
// before any other module loads, so nothing prints around it, and a crash is printed
// through it too (Node's own report of an uncaught error writes past JavaScript).
import { installJobLogBoundary } from '../src/github-output.js';

installJobLogBoundary();
process.on('uncaughtException', (err) => {
  console.error(`tailgate: internal error: ${err?.stack ?? err}`);
  process.exit(4); // EXIT.INFRA: a crash is no verdict
});
const { main } = await import('../src/cli/main.js');
process.exitCode = await main(process.argv.slice(2));
