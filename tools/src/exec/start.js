// The one way tailgate starts a long-lived process (proxies, backends, k6): the tool
// looked up like every other command, output to a log file, `exited` to await, and
// a start failure that names the command.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { InfraError } from '../errors.js';
import { commandLine } from './command.js';
import { toolEnv, which } from './tools.js';
import { recordProcess } from './registry.js';

/** Resolves the started child once it has spawned; child.exited resolves {code, signal}.
 *  detached: its own process group, so a kill of -pid takes its workers too. */
export function startProcess(argv, { logFile, env, cwd, detached = false, name = argv[0] } = {}) {
  const bin = which(argv[0]);
  if (!bin)
    return Promise.reject(
      new InfraError(`cannot start ${name}: ${argv[0]} not found on PATH or in .tools/bin`, {
        details: [`command: ${commandLine(argv)}`],
      }),
    );
  const fd = logFile ? openSync(logFile, 'a') : 'ignore';
  const child = spawn(bin, argv.slice(1), { detached, cwd, env: env ?? toolEnv(), stdio: ['ignore', fd, fd] });
  if (typeof fd === 'number') closeSync(fd); // the child has its own copy
  child.tgName = name;
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    child.once('spawn', () => {
      recordProcess(child.pid, { group: detached, name, argv: [bin, ...argv.slice(1)] });
      resolve(child);
    });
    child.once('error', (err) =>
      reject(new InfraError(`cannot start ${name}: ${err.message}`, { details: [`command: ${commandLine(argv)}`] })),
    );
  });
}
