// Sequential pairs (a duet matrix's maxRepetitions): a repetition beyond `repetitions` is
// optional. Before it runs, the pipeline's interim look (compare/sequential.js, handed in
// as stages.interim: the run stage imports no later one) reads the cell's pairs ingested
// so far and says whether they decide it; once they do, the cell's remaining optional
// repetitions are skipped. Each look is written beside the cell's results
// (<side>/<controller>/<tuning>/<scenario>/sequential.json) for whoever reads the run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TailgateError } from '../errors.js';
import { writeJsonAtomic } from '../result/write.js';

const SIDES = ['base', 'head'];

/** -> { wanted(cell): whether this repetition runs } for one run of a plan. */
export function sequence({ runDir, stages, log }) {
  const decided = new Map(); // cell key -> the look that decided it
  const looks = new Map(); // cell key -> [looks]
  const told = new Set();
  return {
    wanted(cell) {
      if (!cell.optional) return true;
      // Only a duet's pairs can be looked at, also loaded one side at a time (an unfair duet,
      // targets/kube/one-at-a-time.js: the same budget); any other run keeps its fixed ones.
      if (!cell.concurrent || !stages?.interim) {
        if (!told.has(cell.key)) log(`${cell.key}: not a duet here — its ${cell.sequential.minPairs} fixed pairs`);
        told.add(cell.key);
        return false;
      }
      if (decided.has(cell.key)) return false;
      const sides = pairsOf(runDir, cell);
      let look;
      try {
        look = stages.interim({ cell, ...sides });
      } catch (err) {
        if (!(err instanceof TailgateError)) throw err;
        look = { decision: 'continue', why: `could not look: ${err.message}`, pairs: sides.head.length };
      }
      const { minPairs, maxPairs } = cell.sequential;
      const n = look.pairs;
      const all = [...(looks.get(cell.key) ?? []), { pairs: n, decision: look.decision, why: look.why }];
      looks.set(cell.key, all);
      const stop = look.decision !== 'continue';
      if (stop) decided.set(cell.key, look);
      const last = cell.repetition >= maxPairs;
      record(runDir, cell, {
        minPairs,
        maxPairs,
        looks: all,
        stoppedBy: stop ? look.decision : last ? 'budget' : null,
      });
      const skipped = maxPairs - cell.repetition + 1;
      log(
        stop
          ? `${cell.key}: decided after ${n} pairs (${look.why}) — ${skipped} optional pair${skipped === 1 ? '' : 's'} skipped`
          : `${cell.key}: not decided after ${n} pairs (${look.why}) — pair ${cell.repetition} of at most ${maxPairs}`,
      );
      return !stop;
    },
  };
}

// The result files of the cell's repetitions before this one, per side (pairs that
// failed have none on either side or only one: the look matches what it finds).
function pairsOf(runDir, cell) {
  const out = {};
  for (const side of SIDES) {
    out[side] = [];
    for (let rep = 1; rep < cell.repetition; rep++) {
      const file = join(
        runDir,
        side,
        cell.controllerName,
        cell.tuningName,
        cell.scenarioName,
        `rep-${rep}`,
        'result.json',
      );
      if (existsSync(file)) out[side].push(file);
    }
  }
  return out;
}

function record(runDir, cell, what) {
  for (const side of SIDES) {
    const dir = join(runDir, side, cell.controllerName, cell.tuningName, cell.scenarioName);
    if (!existsSync(dir)) continue;
    writeJsonAtomic(
      join(dir, 'sequential.json'),
      { kind: 'tailgate.sequential', cell: cell.key, ...what },
      { force: true },
    );
  }
}
