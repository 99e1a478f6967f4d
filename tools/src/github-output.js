// What tailgate writes where GitHub Actions reads it: the job log (a step's stdout and
// stderr, read line by line for workflow commands), step outputs ($GITHUB_OUTPUT), the
// job summary. One encoding for each, here and in tools/ci/gh.sh (gh_escape) and
// tools/ci/lib.sh (step_output): no text from a file or a flag becomes a command or an
// output of its own.
//
// How the runner reads a log line (actions/runner: ProcessInvoker.cs, OutputManager.cs,
// ActionCommand.cs, ActionCommandManager.cs):
// - lines end at \n, \r or \r\n (StreamReader.ReadLine), on stdout and stderr alike;
// - `::name props::data` when the line, less its leading White_Space (.NET TrimStart:
//   the 25 Unicode White_Space characters, NBSP, U+2028, U+3000… included), starts with
//   `::` (TryParseV2);
// - `##[name props]data` wherever `##[` stands in the line (TryParse, the legacy form);
//   the log viewer also draws its own `##[group]`, `##[error]`… markers;
// - names compare case-insensitively, and `::stop-commands::tok` makes `tok` a name, so
//   the boundary neutralises by form, never by name.
// The runner compares with the current culture (ICU), where a zero-width space weighs
// nothing: `:\u200b:` still "starts with" `::`. It stays inert because the runner then cuts
// the name at a fixed offset (2 after the trim, 3 after `##[`), which lands on the second
// colon or the bracket: no name starts there. tools/test/unit/job-log.test.js models both
// comparisons. The job summary is Markdown the runner uploads unread (FileCommandManager.cs),
// so Markdown escaping (report/gfm.js) is its only encoding.
import { appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';

const ZWSP = '\u200b';
// .NET's TrimStart set, plus what other versions took for space (U+180E before Unicode
// 6.3; U+200B and the BOM before .NET 4) and the other zero-width characters: taking more
// as leading space only ever neutralises more lines.
const LEADING = new Set(
  '\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a' +
    '\u2028\u2029\u202f\u205f\u3000\u180e\u200b\u200c\u200d\u2060\ufeff',
);
const [START, COLON, HELD, MID] = [0, 1, 2, 3];

/** A command's message: GitHub decodes %25 %0D %0A back (actions/toolkit's escapeData). */
export function commandValue(s) {
  return String(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * Text for the job log with no line the runner would read as a command: a zero-width
 * space after the first colon of a line's leading `::` and inside every `##[`. Readable
 * as it was; applying it twice changes nothing.
 */
export function neutralizeCommands(text) {
  const f = new LineFilter(null);
  return f.push(String(text)) + f.end();
}

// The commands tailgate meant to print, each let through the boundary once, as the exact
// line workflowCommand built. A line from a file equal to one that was built and not yet
// printed would pass in its place: it says what tailgate was about to say.
const issued = new Map();

/**
 * The one way to print a workflow command: returns `::kind::message`, to print as a line
 * of its own (console.log, a test's log) through the boundary. The message is neutralised
 * (the runner writes it to the log decoded, its line breaks and all) and escaped, so the
 * command is one line and ends where the line does.
 */
export function workflowCommand(kind, message) {
  if (!['debug', 'notice', 'warning', 'error', 'group', 'endgroup'].includes(kind))
    throw new Error(`workflow command ${JSON.stringify(kind)}: not one tailgate prints`);
  const line = `::${kind}::${commandValue(neutralizeCommands(message))}`;
  issued.set(line, (issued.get(line) ?? 0) + 1);
  return line;
}

function takeIssued(line) {
  const n = issued.get(line);
  if (!n) return false;
  if (n === 1) issued.delete(line);
  else issued.set(line, n - 1);
  return true;
}

// One stream's lines as they are written, in chunks that may split a line (or `::`, or a
// character) anywhere. A line that starts with `::` is held to its end: only then is it
// known to be a command tailgate built (commands: takeIssued) or text to neutralise.
class LineFilter {
  constructor(commands) {
    this.commands = commands;
    this.newLine();
  }

  newLine() {
    this.state = START;
    this.lead = false;
    this.hashes = 0;
    this.held = '';
  }

  push(text) {
    let out = '';
    for (const c of text) {
      if (c === '\n' || c === '\r') {
        out += this.endLine() + c;
        continue;
      }
      if (this.state === HELD) {
        this.held += c;
        continue;
      }
      if (this.state === START) {
        if (LEADING.has(c)) {
          this.lead = true;
          out += c;
          continue;
        }
        if (c === ':') {
          this.state = COLON;
          continue;
        }
      } else if (this.state === COLON) {
        this.state = MID;
        if (c === ':') {
          if (this.commands && !this.lead) [this.state, this.held] = [HELD, '::'];
          else out += `:${ZWSP}:`;
          continue;
        }
        out += ':';
      }
      this.state = MID;
      if (c === '[' && this.hashes >= 2) out += ZWSP;
      this.hashes = c === '#' ? this.hashes + 1 : 0;
      out += c;
    }
    return out;
  }

  /** What is held back, when the line ends (or the stream does). */
  endLine() {
    let out = '';
    if (this.state === COLON) out = ':';
    else if (this.state === HELD)
      out = this.commands(this.held) ? this.held : `:${ZWSP}:${this.held.slice(2).replace(/##\[/g, `##${ZWSP}[`)}`;
    this.newLine();
    return out;
  }

  end() {
    return this.endLine();
  }
}

const boundaries = new WeakMap();
const flushes = [];
let flushOnExit = false;

/**
 * The job-log boundary: every write to these streams (console.* included) passes the
 * neutraliser, line by line across writes; only lines workflowCommand built get through
 * as commands. tools/bin/tailgate.js installs it before anything else runs. Returns a
 * flush for text held at the end (also run on exit).
 */
export function installJobLogBoundary(streams = [process.stdout, process.stderr]) {
  if (!flushOnExit) {
    process.once('exit', () => flushes.forEach((f) => f()));
    flushOnExit = true;
  }
  const mine = [];
  for (const stream of streams) {
    if (boundaries.has(stream)) {
      mine.push(boundaries.get(stream));
      continue;
    }
    const raw = stream.write;
    const filter = new LineFilter(takeIssued);
    const decoder = new StringDecoder('utf8');
    const text = (chunk, encoding) => {
      if (typeof chunk === 'string' && (!encoding || /^utf-?8$/i.test(encoding))) return decoder.end() + chunk;
      return decoder.write(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk));
    };
    stream.write = function write(chunk, encoding, cb) {
      if (typeof encoding === 'function') [cb, encoding] = [encoding, undefined];
      return raw.call(this, filter.push(text(chunk, encoding)), 'utf8', cb);
    };
    const flush = () => {
      const rest = filter.push(decoder.end()) + filter.end();
      if (rest) raw.call(stream, rest, 'utf8');
    };
    boundaries.set(stream, flush);
    flushes.push(flush);
    mine.push(flush);
  }
  return () => mine.forEach((f) => f());
}

/**
 * One step output: `name=value`, or a heredoc with a random delimiter when the value
 * holds a line break (as actions/toolkit's setOutput does), so no value adds an output.
 * Appended to $GITHUB_OUTPUT, or returned as text for stdout where there is none.
 */
export function outputLines(name, value) {
  if (!/^[A-Za-z_][A-Za-z0-9_-]{0,99}$/.test(name)) throw new Error(`step output name ${JSON.stringify(name)}`);
  const v = String(value);
  if (!/[\r\n]/.test(v)) return `${name}=${v}\n`;
  let delim;
  do delim = `ghadelimiter_${randomBytes(12).toString('hex')}`;
  while (v.includes(delim));
  return `${name}<<${delim}\n${v}\n${delim}\n`;
}

export function setOutputs(entries, { env = process.env, write = (t) => process.stdout.write(t) } = {}) {
  const text = entries.map(([name, value]) => outputLines(name, value)).join('');
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, text);
  else write(text);
}

/** A Markdown block appended to the job summary, when there is one. */
export function appendSummary(markdown, { env = process.env } = {}) {
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `\n${markdown}\n`);
}
