// Dispatch to one file per subcommand. Sets an exit code, never calls process.exit,
// so every stage can also be called from tests and from the publish module.
import { parseArgs } from 'node:util';
import { EXIT, TailgateError } from '../errors.js';
import { neutralizeCommands } from '../github-output.js';
import { EXIT_CODES_LINE, helpText } from './exit-codes.js';
import { closest } from '../nearest.js';
import { hint } from '../install.js';

// Loaded as asked for (loadCommands); the usage lists them in NAMES's order.
export const COMMANDS = {};

const NO_COLOR = '--no-color';
/** The flags every command takes beside its own (completion.js offers them too). */
export const GLOBAL_OPTIONS = Object.freeze({
  help: { type: 'boolean', short: 'h' },
  'no-color': { type: 'boolean' },
});

const USAGE = `tailgate — regression gates for ingress tail latency

Usage: tailgate <command> [options]      (tailgate <command> --help for details)

Commands:
${'{commands}'}
${EXIT_CODES_LINE}`;

// io: { log, err } where a command prints (stdout and stderr when unset); commands that
// make a document print it once at this edge (json-out.js), never by swapping the console.
export async function main(argv, io = {}) {
  // --no-color is accepted before the command too: tailgate prints no colour (so NO_COLOR
  // holds already), but people who want none type it anyway.
  const lead = argv.findIndex((a) => a !== NO_COLOR);
  const [name, ...rest] = lead < 0 ? [] : argv.slice(lead);
  await loadCommands(name);
  // `tailgate help validate` is `tailgate validate --help`; `help <no command>` is the
  // unknown command it names.
  const topic = name === 'help' ? rest.find((a) => ![NO_COLOR, '--help', '-h'].includes(a)) : undefined;
  if (topic !== undefined) {
    const cmd = commandOf(topic);
    if (!cmd) return unknownCommand(topic);
    console.log(helpText(cmd));
    return EXIT.OK;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? EXIT.OK : EXIT.BAD_INPUT;
  }
  if (name === '--version') {
    const { TAILGATE_VERSION } = await import('../version.js');
    console.log(TAILGATE_VERSION);
    return EXIT.OK;
  }
  const cmd = commandOf(name);
  if (!cmd) return unknownCommand(name);
  let args;
  try {
    args = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...cmd.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    console.error(neutralizeCommands(`tailgate ${name}: ${flagError(err, cmd)}\n\n${cmd.usage}`));
    return EXIT.BAD_INPUT;
  }
  delete args.values['no-color']; // accepted, and nothing to turn off
  if (args.values.help) {
    console.log(helpText(cmd));
    return EXIT.OK;
  }
  try {
    return (await cmd.run(args.values, args.positionals, io)) ?? EXIT.OK;
  } catch (err) {
    return commandFailed(name, err, io.err);
  }
}

// A command is one of NAMES, never whatever else a plain object answers to: looked up in
// COMMANDS, `constructor` or `toString` was a "command" that crashed (issue 67).
function commandOf(name) {
  return NAMES.includes(name) ? COMMANDS[name] : undefined;
}

function unknownCommand(name) {
  const near = closest(name, NAMES);
  console.error(
    neutralizeCommands(
      `tailgate: unknown command "${String(name).slice(0, 40)}"${near ? ` — did you mean "${near}"?` : ''}; expected one of: ${NAMES.join(', ')}`,
    ),
  );
  return EXIT.BAD_INPUT;
}

/** A command's error as the CLI prints it (on `warn`, stderr) -> its exit code. */
export function commandFailed(name, err, warn = (...a) => console.error(...a)) {
  if (err instanceof TailgateError) {
    // Messages quote values from files and flags: none may start a workflow command.
    warn(neutralizeCommands(hint(`tailgate ${name}: ${err.message}`)));
    for (const d of err.details) warn(neutralizeCommands(hint(`  ${d}`)));
    return err.exitCode;
  }
  warn(neutralizeCommands(`tailgate ${name}: internal error: ${err.stack ?? err}`));
  return EXIT.INFRA;
}

// A mistyped flag (--cofig) names the one meant, in the CLI's words (parseArgs' own
// message is about positional arguments).
function flagError(err, cmd) {
  const flag = /Unknown option '--([^']{1,60})'/.exec(err.message)?.[1];
  if (!flag) return err.message;
  const near = closest(flag, [...Object.keys(GLOBAL_OPTIONS), ...Object.keys(cmd.options ?? {})]);
  return `unknown flag --${flag}${near ? ` — did you mean --${near}?` : ''} (the flags are below)`;
}

// The nearest-name rule lives with the other readers of names (a bench.yaml's keys too).
export { closest };

function usage() {
  const width = Math.max(...NAMES.map((n) => n.length));
  const lines = NAMES.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n].summary}`).join('\n');
  return USAGE.replace('{commands}', `${lines}\n`);
}

// Commands are imported lazily, only the one asked for: all of them cost `tailgate ingest`
// (once per cell) ~0.5 s of CPU — init's usage alone reads the controller catalog, doctor
// and validate bring bench.yaml's loader, YAML and the kube helpers. The usage, or a name
// to correct, loads every one. The order is the usage's.
const NAMES = [
  'doctor',
  'validate',
  'ingest',
  'init',
  'setup',
  'plan',
  'run',
  'migrate',
  'compare',
  'report',
  'gate',
  'baseline',
  'history',
  'version',
  'completion',
];
/** Every command, loaded, in the usage's order: [[name, module], …]. */
export async function allCommands() {
  await loadCommands();
  return NAMES.map((n) => [n, COMMANDS[n]]);
}

async function loadCommands(name) {
  for (const n of NAMES.includes(name) ? [name] : NAMES) COMMANDS[n] ??= await import(`./${n}.js`);
}
