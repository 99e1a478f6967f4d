// How far a run is, said before each cell: cells done of planned and the time left. The
// time is plan's model (plan/cost.js) for the cells still to run, scaled by this run's
// pace so far (the model is a 2-core machine's; this one may be faster or slower). On a
// terminal the line goes to stderr, so a run's stdout piped to a file stays its record;
// in CI (no terminal) it is one more plain line of the job log.
import { estimateCost } from '../plan/cost.js';

/**
 * -> { next(cell) }: call before each cell that runs. log: the run's log (CI);
 * tty: whether stderr is a terminal; write: how a line reaches it; now: the clock.
 */
export function progress(
  plan,
  {
    log = console.log,
    tty = Boolean(process.stderr.isTTY) && !process.env.CI,
    write = (line) => process.stderr.write(`${line}\n`),
    now = Date.now,
  } = {},
) {
  const modelS = (cells) => (cells.length ? estimateCost({ ...plan, cells }, { oneProcess: true }).longestJobS : 0);
  const planned = plan.cells.length;
  const totalS = modelS(plan.cells);
  const started = now();
  const say = tty ? write : log;
  return {
    next(cell) {
      const done = plan.cells.indexOf(cell);
      if (done <= 0) return; // nothing measured yet: the run's first line gave the plan's estimate
      // What is done carries the set-up once (the model's start, a controller's install):
      // the rest of the plan's total is what is left, at the pace the done part took.
      const doneS = modelS(plan.cells.slice(0, done));
      const leftS = Math.max(0, totalS - doneS);
      const pace = (now() - started) / 1000 / Math.max(1, doneS);
      say(`progress: ${done} of ${planned} cells done, about ${duration(leftS * pace)} left`);
    },
  };
}

function duration(s) {
  if (s < 90) return `${Math.max(1, Math.round(s))} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}
