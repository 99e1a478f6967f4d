// The CLI's exit codes as users read them: one table, printed under every command's
// --help and in the top-level usage. docs/cli.md carries the same rows (a test holds them
// together); a command's own usage says only what the codes mean for it in particular.
import { EXIT } from '../errors.js';
import { hint } from '../install.js';

export const EXIT_CODES = Object.freeze([
  [EXIT.OK, 'pass / ok (also: improvement)'],
  [EXIT.REGRESSION, 'regression'],
  [EXIT.BAD_INPUT, 'usage or bad input (file, field and rule named; nothing written)'],
  [EXIT.INCONCLUSIVE, 'inconclusive (load not delivered, too few samples, other machine, no baseline)'],
  [EXIT.INFRA, 'infrastructure error (a tool, proxy, cluster or controller failed — never the change)'],
  [130, 'interrupted (Ctrl-C); everything started was stopped'],
]);

/** The table under a command's usage text. */
export const EXIT_CODES_HELP = `Exit codes (every command):\n${EXIT_CODES.map(([c, m]) => `  ${String(c).padStart(3)}  ${m}`).join('\n')}`;

/** One line, for the top-level usage. */
export const EXIT_CODES_LINE = `Exit codes: ${EXIT_CODES.map(([c, m]) => `${c} ${m.replace(/ \(.*$/, '')}`).join(' · ')}`;

/** A command's usage as --help prints it: its own text (in the words of where it runs), then the table. */
export function helpText(cmd) {
  return `${hint(cmd.usage)}\n\n${EXIT_CODES_HELP}`;
}
