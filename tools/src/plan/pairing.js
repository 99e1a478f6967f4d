// How a PR's cell runs base against head on one runner — decided here, not in the cell
// scripts (tools/ci/duet-cell.sh, paired-cell.sh keep only the git and GitHub glue):
// as a duet (two releases in one cluster), as interleaved pairs (and why), or the head
// alone (the base commit has no bench config: nothing to compare with); and the order
// and numbering of interleaved runs.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadBench } from '../config/load.js';
import { InputError } from '../errors.js';
import { duetRefusal } from './duet.js';

/**
 * {mode: 'duet'|'interleaved'|'alone', why} for this checkout's config (headCfg) against
 * the base commit's checkout. tailgateHome: this tailgate's own folder; a base checkout
 * that is tailgate itself (it has tools/ci/bench-cell.sh) and whose code differs runs
 * interleaved, each side with its own code.
 */
export function pairingMode({ headCfg, matrix, baseDir, configName, tailgateHome }) {
  const baseConfig = join(baseDir, configName);
  if (!existsSync(baseConfig)) return { mode: 'alone', why: `the base commit has no ${configName}` };
  const refusal = duetRefusal(loadBench(baseConfig), headCfg, matrix);
  if (refusal) return { mode: 'interleaved', why: refusal };
  if (
    existsSync(join(baseDir, 'tools', 'ci', 'bench-cell.sh')) &&
    !sameTree(join(baseDir, 'tools', 'src'), join(tailgateHome, 'tools', 'src'))
  )
    return { mode: 'interleaved', why: "tailgate's own code changes in this PR" };
  return { mode: 'duet', why: null };
}

/**
 * Interleaved runs, one repetition at a time, A B, B A, A B… so the runner's drift hits
 * both sides alike: [{side, pair}], pairs numbered from `first` (a confirmation round
 * continues the numbering of the round before it).
 */
export function pairOrder(repetitions, first = 1) {
  if (!Number.isInteger(repetitions) || repetitions < 1 || repetitions > 1000)
    throw new InputError(`--repetitions: expected an integer in [1, 1000], got ${String(repetitions).slice(0, 20)}`);
  if (!Number.isInteger(first) || first < 1 || first > 100_000)
    throw new InputError(`--first-pair: expected an integer in [1, 100000], got ${String(first).slice(0, 20)}`);
  return Array.from({ length: repetitions }, (_, i) => {
    const pair = first + i;
    const sides = i % 2 === 0 ? ['base', 'head'] : ['head', 'base'];
    return sides.map((side) => ({ side, pair }));
  }).flat();
}

// Two source trees with the same files and bytes (links and other entries count as
// different; bounded: a tree of more than MAX_FILES is taken as different).
const MAX_FILES = 5_000;
function sameTree(a, b) {
  const digest = (root) => {
    const files = new Map();
    const walk = (dir) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (files.size > MAX_FILES) return;
        if (e.isDirectory()) walk(p);
        else if (e.isFile() && statSync(p).size <= 16 << 20)
          files.set(relative(root, p), createHash('sha256').update(readFileSync(p)).digest('hex'));
        else files.set(relative(root, p), `other:${lstatSync(p).mode}`);
      }
    };
    try {
      walk(root);
    } catch {
      return null;
    }
    return files.size > MAX_FILES ? null : files;
  };
  const [x, y] = [digest(a), digest(b)];
  if (!x || !y || x.size !== y.size) return false;
  for (const [k, v] of x) if (y.get(k) !== v) return false;
  return true;
}
