// What tailgate writes where GitHub Actions reads commands: `::error::` lines, step
// outputs ($GITHUB_OUTPUT), the job summary. One encoding for each, here and in
// tools/ci/lib.sh (gh_escape, step_output): a value with a line break must not become a
// command or an output of its own.
import { appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/** A command's message: GitHub decodes %25 %0D %0A back (actions/toolkit's escapeData). */
export function commandValue(s) {
  return String(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * Text printed by the CLI: no line of it can start a workflow command (the runner reads
 * every line of a step's output for '::', leading whitespace ignored). A zero-width
 * space between the colons keeps the text readable.
 */
export function neutralizeCommands(text) {
  return String(text).replace(/^([ \t]*):(?=:)/gm, '$1:\u200b');
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
