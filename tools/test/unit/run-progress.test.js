// Long work says how far it is (issue 62, item 6): before each cell after the first, cells
// done of planned and the time left — plan's model for the rest, at the pace the done part
// took — on stderr at a terminal, as a plain line of the run's log in CI.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadBench } from '../../src/config/load.js';
import { estimateCost } from '../../src/plan/cost.js';
import { planMatrix } from '../../src/plan/plan.js';
import { progress } from '../../src/run/progress.js';

const plan = planMatrix(loadBench(new URL('../../../bench.yaml', import.meta.url).pathname), 'local');
const model = (cells) => estimateCost({ ...plan, cells }, { oneProcess: true }).longestJobS;

function drive({ tty, secondsPerCell }) {
  const lines = { log: [], write: [] };
  let t = 0;
  const p = progress(plan, {
    tty,
    log: (l) => lines.log.push(l),
    write: (l) => lines.write.push(l),
    now: () => t,
  });
  for (const cell of plan.cells) {
    p.next(cell);
    t += secondsPerCell * 1000;
  }
  return lines;
}

test('progress: cells done of planned before each cell but the first, time left from the model at the run’s pace', () => {
  const n = plan.cells.length;
  const { log, write } = drive({ tty: false, secondsPerCell: 30 });
  assert.equal(write.length, 0);
  assert.equal(log.length, n - 1, 'nothing before the first cell: the run’s first line has the estimate');
  assert.match(log[0], new RegExp(`^progress: 1 of ${n} cells done, about \\d+ (s|min) left$`));
  // Twice as slow as the model: twice the model's time left.
  const half = Math.floor(n / 2);
  const doneS = model(plan.cells.slice(0, half));
  const left = ((model(plan.cells) - doneS) * (half * 30)) / doneS;
  const said = Number(/about (\d+) (s|min)/.exec(log[half - 1])[1]) * (log[half - 1].includes('min') ? 60 : 1);
  assert.ok(Math.abs(said - left) <= 30, `${log[half - 1]} vs ${left} s`);
  assert.match(log.at(-1), new RegExp(`${n - 1} of ${n} cells done`));
});

test('progress: on a terminal the line goes to stderr (the run’s stdout stays its record); in CI to the job log', () => {
  const tty = drive({ tty: true, secondsPerCell: 10 });
  assert.equal(tty.log.length, 0);
  assert.equal(tty.write.length, plan.cells.length - 1);
  assert.ok(tty.write.every((l) => /^progress: \d+ of \d+ cells done, about .+ left$/.test(l)));
});
