// Committed baselines: baselines/<profile>/<controller>/<tuning>/<scenario>.json.
// In a PR they are read from the base commit (`git show <ref>:<path>`), never from
// the PR's own tree, so a PR cannot approve itself by editing its baseline.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { InputError } from '../errors.js';
import { runSync } from '../exec/run.js';
import { checkCellKey, checkName, under } from '../names.js';
import { readJsonFile, toReps } from '../result/load.js';

export function baselinePath(dir, profile, cellKey) {
  checkName(profile, 'profile');
  const [controller, tuning, scenario] = checkCellKey(cellKey, 'baseline').split('/');
  return under(dir, profile, controller, tuning, `${scenario}.json`);
}

/** Returns {file, reps} or null when no baseline exists for the cell. */
export function readBaseline({ dir = 'baselines', profile, cellKey, baseRef }) {
  const file = baselinePath(dir, profile, cellKey);
  if (baseRef === '')
    throw new InputError("--base-ref is empty: name the base commit (an empty ref would read the PR's own baselines)");
  if (baseRef === undefined || baseRef === null) {
    if (!existsSync(file)) return null;
    return { file, ...toReps(readJsonFile(file), file) };
  }
  // "<ref>:./<path>" is resolved by git relative to the working directory.
  const rel = relative(process.cwd(), file).split('\\').join('/');
  const r = runSync(['git', 'show', `${baseRef}:./${rel}`], { maxBuffer: 64 << 20, timeoutMs: 60_000 });
  if (r.code !== 0) {
    if (/does not exist|exists on disk, but not in/.test(r.stderr)) return null;
    throw new InputError(
      `--base-ref ${baseRef}: cannot read ${rel} (${r.stderr.trim().split('\n')[0]}); is the base commit fetched? (actions/checkout fetch-depth: 0)`,
    );
  }
  const label = `${baseRef}:${rel}`;
  return { file: label, ...toReps(readJsonFile(label, r.stdout), label) };
}
