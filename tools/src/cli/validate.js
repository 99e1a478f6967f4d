import { loadConfig } from './config-file.js';
import { EXIT, InputError } from '../errors.js';
import { neutralizeCommands } from '../github-output.js';
import { jsonOption, withJson } from './json-out.js';

export const summary = 'Check bench.yaml and report every problem at once';
export const usage = `Usage: tailgate validate [--config bench.yaml] [--json]

Exits 0 when the config is valid, 2 with every problem listed (file:line:col) otherwise.
--json: stdout is {"ok": true|false, "errors": [{"file", "line", "col", "field", "rule"}]}
        and nothing else (the lines for people go to stderr); exit codes as without it.`;
export const options = {
  config: { type: 'string', default: process.env.TAILGATE_CONFIG ?? 'bench.yaml' },
  ...jsonOption,
};

export function run(opts, positionals, io) {
  // `validate perf.yaml` would otherwise validate bench.yaml and say it is valid.
  if (positionals.length)
    throw new InputError(
      `validate takes no positional arguments (--config ${JSON.stringify(positionals[0].slice(0, 80))} names a config)\n\n${usage}`,
    );
  return withJson(opts.json, io, ({ log, err: warn }) => {
    let cfg;
    try {
      cfg = loadConfig(opts.config);
    } catch (err) {
      if (!opts.json || !(err instanceof InputError)) throw err;
      // As main() prints a refusal: values quoted from the file start no workflow command.
      warn(neutralizeCommands(`tailgate validate: ${err.message}`));
      for (const d of err.details) warn(neutralizeCommands(`  ${d}`));
      return { code: EXIT.BAD_INPUT, doc: invalidDoc(opts.config, err) };
    }
    const n = (o) => Object.keys(o).length;
    log(
      `${opts.config}: valid — ${n(cfg.controllers)} controllers, ${n(cfg.tunings)} tunings, ${n(cfg.scenarios)} scenarios, matrices: ${Object.keys(cfg.matrices).join(', ')}`,
    );
    return { code: EXIT.OK, doc: { ok: true, errors: [] } };
  });
}

// A refusal without located problems (an error raised after the checks) is one error
// about the file as a whole.
function invalidDoc(file, err) {
  const errors = err.problems ?? [{ file, field: null, rule: err.message }];
  return { ok: false, errors, ...(err.moreProblems ? { moreErrors: err.moreProblems } : {}) };
}
