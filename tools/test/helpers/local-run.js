// One cell on the real local target, then the real ingest: what the integration
// tests and the gate benchmark measure with.
import { join } from 'node:path';
import { resultRep } from '../../src/result/load.js';
import { parseDuration } from '../../src/units.js';
import { ingest } from '../../src/ingest/ingest.js';
import { runCell } from '../../src/targets/local/driver.js';
import { loadOutput } from '../../src/engines/index.js';
import { makeCell } from './cells.js';
import { scratchDir } from './scratch.js';

/** extra: fields laid over the cell (isolation, nodeLatency). */
export async function runLocal({ controller, scenario, tuning, extra = {} }) {
  const dir = scratchDir('tg-run-');
  const run = await runCell({ cell: { ...makeCell({ controller, scenario, tuning }), ...extra }, cellDir: dir });
  const result = await ingest({
    ...loadOutput(run.load, dir),
    events: run.eventsFile,
    meta: {
      rate: scenario.rate ?? null,
      durationMs: parseDuration(scenario.duration),
      profile: 'local',
      k6ExitCode: run.load.exitCode,
    },
  });
  return { dir, run, result, rep: resultRep(result, join(dir, 'result.json')) };
}
