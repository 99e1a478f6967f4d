import { existsSync } from 'node:fs';
import { baselinePath } from '../compare/baselines.js';
import { buildBaseline } from '../compare/baseline-doc.js';
import { readJsonFile, toReps } from '../result/load.js';
import { collectRun } from '../result/run-dir.js';
import { InputError } from '../errors.js';
import { writeAllAtomic } from '../result/write.js';
import { delta, ms } from '../report/format.js';
import { list } from './options.js';
import { checkName } from '../names.js';

export const summary = 'baseline update: write baselines/ from a run (the only way baselines change)';
export const usage = `Usage: tailgate baseline update --results <run-dir> [--profile <name>] [--cells a/b/c,...]
                                [--baselines baselines] [--force]

Writes baselines/<profile>/<controller>/<tuning>/<scenario>.json for every cell of the run
(repetitions' histograms merged exactly, per-repetition quantiles kept, provenance recorded).
Refuses a profile mismatch and cells with harness errors; never overwrites without --force;
prints how the key numbers change.`;
export const options = {
  results: { type: 'string' },
  profile: { type: 'string' },
  cells: { type: 'string' },
  baselines: { type: 'string', default: 'baselines' },
  force: { type: 'boolean', default: false },
};

export function run(opts, positionals) {
  if (positionals[0] !== 'update')
    throw new InputError(`expected "baseline update", got ${JSON.stringify(positionals[0] ?? '')}\n\n${usage}`);
  if (!opts.results) throw new InputError('--results <run-dir> is required');
  const only = list(opts.cells, 'cells');
  const cells = collectRun(opts.results).filter((c) => !only || only.includes(c.key));
  if (only) {
    const missing = only.filter((k) => !cells.some((c) => c.key === k));
    if (missing.length) throw new InputError(`--cells: not in ${opts.results}: ${missing.join(', ')}`);
  }
  const broken = cells.filter((c) => c.errors.length || !c.reps.length);
  if (broken.length)
    throw new InputError(`refusing to record baselines from cells that failed: ${broken.map((c) => c.key).join(', ')}`);
  const planned = cells.map((c) => {
    const profile = checkName(opts.profile ?? c.profile, opts.profile ? '--profile' : `${c.key}: meta.profile`);
    const file = baselinePath(opts.baselines, profile, c.key);
    return { c, file, doc: buildBaseline({ cellKey: c.key, profile, reps: c.reps }) };
  });
  const clash = planned.filter((p) => existsSync(p.file));
  if (clash.length && !opts.force) {
    throw new InputError(`baselines exist and are never overwritten silently; pass --force to replace:`, {
      details: clash.map((p) => p.file),
    });
  }
  // All or nothing: every baseline is built and staged before any replaces an old one.
  const olds = planned.map((p) => (existsSync(p.file) ? toReps(readJsonFile(p.file), p.file).doc : null));
  writeAllAtomic(
    planned.map((p) => ({ file: p.file, root: opts.baselines, text: `${JSON.stringify(p.doc, null, 1)}\n` })),
  );
  planned.forEach(({ c, file, doc }, i) => {
    console.log(`${file}: ${doc.repetitions.length} rep(s), ${doc.merged.requests} requests — ${change(olds[i], doc)}`);
    if (c.reps.some((r) => r.load.droppedIterations > 0))
      console.log(`  warning: ${c.key} has dropped iterations; the baseline load was not fully delivered`);
  });
  return 0;
}

function change(old, doc) {
  const p = doc.merged.percentiles;
  const now = `p50 ${ms(p.p50)}, p99 ${ms(p.p99)}, p99.99 ${ms(p['p99.99'])}, errors ${doc.merged.errors.total}`;
  if (!old) return `new: ${now}`;
  const o = old.merged.percentiles;
  const d = (a, b) => delta({ ratio: b / a });
  return `p50 ${ms(o.p50)} -> ${ms(p.p50)} (${d(o.p50, p.p50)}), p99 ${ms(o.p99)} -> ${ms(p.p99)} (${d(o.p99, p.p99)}), p99.99 ${ms(o['p99.99'])} -> ${ms(p['p99.99'])}, errors ${old.merged.errors.total} -> ${doc.merged.errors.total}`;
}
