// A scratch folder the test process removes when it exits, passed or failed: helpers that
// keep one for the whole process (a cache, a results folder) and tests that make one per
// case leave nothing in the temp dir. Removal at 'exit' must be synchronous: it is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** mkdtemp(<temp dir>/<prefix>XXXXXX), removed at the process's exit. */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
