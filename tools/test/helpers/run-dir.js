// Lays out a results folder exactly as `tailgate run` does, from synthetic results.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticResult } from './synthetic.js';
import { scratchDir } from './scratch.js';

export async function makeRunDir(cells, root = scratchDir('tg-run-')) {
  for (const [key, repsOpts] of Object.entries(cells)) {
    for (let i = 0; i < repsOpts.length; i++) {
      const dir = join(root, key, `rep-${i + 1}`);
      mkdirSync(dir, { recursive: true });
      const opts = repsOpts[i];
      if (opts.cellError) {
        writeFileSync(
          join(dir, 'cell-error.json'),
          JSON.stringify({ kind: 'tailgate.cell-error', cell: key, infra: true, message: opts.cellError, details: [] }),
        );
        continue;
      }
      const { result } = await syntheticResult({ cell: key, ...opts });
      writeFileSync(join(dir, 'result.json'), JSON.stringify(result));
    }
  }
  return root;
}
