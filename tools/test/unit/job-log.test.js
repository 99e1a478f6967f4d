// The job-log boundary (tools/src/github-output.js): no line tailgate prints in a workflow
// is one the runner reads as a command, except the commands tailgate means. Checked
// against a model of how actions/runner reads a step's output, in both of the string
// comparisons it may make, over a table of the forms it parses.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { installJobLogBoundary, neutralizeCommands, workflowCommand } from '../../src/github-output.js';
import { makeRunDir } from '../helpers/run-dir.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const TAILGATE = join(ROOT, 'tools/bin/tailgate.js');
const GITHUB_OUTPUT_JS = join(ROOT, 'tools/src/github-output.js');

// --- The runner, as read in actions/runner (src/Runner.Sdk/ProcessInvoker.cs,
// src/Runner.Worker/Handlers/OutputManager.cs, src/Runner.Common/ActionCommand.cs,
// src/Runner.Worker/ActionCommandManager.cs). ---

// Every IActionCommandExtension's Command, and stop-commands (ActionCommandManager.cs).
// Matched OrdinalIgnoreCase; a stop token joins them while commands are stopped.
const REGISTERED = new Set([
  'add-mask',
  'add-matcher',
  'add-path',
  'debug',
  'echo',
  'endgroup',
  'error',
  'group',
  'internal-set-repo-path',
  'notice',
  'remove-matcher',
  'save-state',
  'set-env',
  'set-output',
  'stop-commands',
  'warning',
]);
// String.TrimStart(): Char.IsWhiteSpace, the Unicode White_Space property.
const WHITE_SPACE = [
  ...'\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a',
  ...'\u2028\u2029\u202f\u205f\u3000',
];
// Characters ICU's collation gives no weight (a sample: the ones text is likely to hold).
const IGNORABLE = new Set([...'\u0000\u00ad\u034f\u180e\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\ufeff']);

// Where `pattern` is first found from `from`: [index] compared ordinally; with ICU
// (the runner compares in the current culture), ignorable characters are skipped inside
// the match and the index reported may be that of ignorables just before it, so every
// such index is a candidate.
function indexOf(s, pattern, from, icu) {
  if (!icu) {
    const i = s.indexOf(pattern, from);
    return i < 0 ? [] : [i];
  }
  for (let i = from; i < s.length; i++) {
    let j = i;
    let k = 0;
    while (j < s.length && k < pattern.length) {
      if (s[j] === pattern[k]) k++;
      else if (!(IGNORABLE.has(s[j]) && k > 0)) break;
      j++;
    }
    if (k === pattern.length) {
      const starts = [i];
      for (let b = i - 1; b >= from && IGNORABLE.has(s[b]); b--) starts.push(b);
      return starts;
    }
  }
  return [];
}

function startsWith(s, prefix, icu) {
  if (!icu) return s.startsWith(prefix);
  let i = 0;
  while (i < s.length && IGNORABLE.has(s[i])) i++;
  return indexOf(s, prefix, i, true).includes(i);
}

const named = (info) => {
  const name = info.split(' ')[0];
  return REGISTERED.has(name.toLowerCase()) ? name : null;
};

// ActionCommand.TryParseV2: `::name props::data` once the line is trimmed at the start.
function tryParseV2(line, icu) {
  let m = line;
  while (m && WHITE_SPACE.includes(m[0])) m = m.slice(1);
  if (!startsWith(m, '::', icu)) return null;
  for (const end of indexOf(m, '::', 2, icu)) {
    const name = named(m.slice(2, end));
    if (name) return { form: '::', name, data: m.slice(end + 2) };
  }
  return null;
}

// ActionCommand.TryParse: `##[name props]data` anywhere in the line.
function tryParseLegacy(line, icu) {
  for (const at of indexOf(line, '##[', 0, icu)) {
    const rb = line.indexOf(']', at);
    if (rb < at + 3) continue; // no `]`, or Substring's length < 0: the parse throws, caught
    const name = named(line.slice(at + 3, rb));
    if (name) return { form: '##[', name, data: line.slice(rb + 1) };
  }
  return null;
}

/** The commands the runner reads in `text` (StreamReader.ReadLine's lines), either way it compares. */
function runnerReads(text) {
  const found = [];
  for (const line of String(text).split(/\r\n|\r|\n/)) {
    const c = [false, true].map((icu) => tryParseV2(line, icu) ?? tryParseLegacy(line, icu)).find(Boolean);
    if (c) found.push({ ...c, line });
  }
  return found;
}

// --- The table: each form the runner parses, and what the boundary makes of it. ---
const Z = '\u200b';
const FORMS = [
  ['::error::x', `:${Z}:error::x`],
  ['::ERROR::x (names compare case-insensitively)', `:${Z}:ERROR::x (names compare case-insensitively)`],
  ['::warning file=a.js,line=1::x', `:${Z}:warning file=a.js,line=1::x`],
  ['  ::warning ::x', `  :${Z}:warning ::x`],
  ['\t::debug::x', `\t:${Z}:debug::x`],
  ['\u00a0::set-output name=a::b', `\u00a0:${Z}:set-output name=a::b`],
  ['\u2003::error::x', `\u2003:${Z}:error::x`],
  ['\u3000\u2028\u0085::notice::x', `\u3000\u2028\u0085:${Z}:notice::x`],
  ['::stop-commands::tok', `:${Z}:stop-commands::tok`],
  ['::add-mask::x', `:${Z}:add-mask::x`],
  ['::echo::on', `:${Z}:echo::on`],
  ['::set-env name=NODE_OPTIONS::--require x', `:${Z}:set-env name=NODE_OPTIONS::--require x`],
  ['::add-path::/tmp/x', `:${Z}:add-path::/tmp/x`],
  ['::error::data with ##[ inside', `:${Z}:error::data with ##${Z}[ inside`],
  ['##[error]x', `##${Z}[error]x`],
  ['##[set-output name=a;]b', `##${Z}[set-output name=a;]b`],
  ['##[ERROR]x', `##${Z}[ERROR]x`],
  ['cell nginx: ##[warning]x (anywhere in a line)', `cell nginx: ##${Z}[warning]x (anywhere in a line)`],
  ['###[error]x', `###${Z}[error]x`],
  ['ok\r::error::x', `ok\r:${Z}:error::x`],
  ['ok\r\n::error::x', `ok\r\n:${Z}:error::x`],
  ['ok\n  ::error::x\n##[group]g', `ok\n  :${Z}:error::x\n##${Z}[group]g`],
  ['ok\r##[error]x', `ok\r##${Z}[error]x`],
  // Seen by ICU, not by an ordinal compare: ignorables inside the separator.
  ['::error:\u200b:x', `:${Z}:error:\u200b:x`],
];
// Lines the runner leaves alone that the boundary neutralises all the same (a leading
// BOM or zero-width space: .NET trims neither; `::` alone: no name).
const ALSO = [
  ['\ufeff::error::x', `\ufeff:${Z}:error::x`],
  [`${Z}::error::x`, `${Z}:${Z}:error::x`],
  ['::', `:${Z}:`],
  ['::nonsense::x', `:${Z}:nonsense::x`],
  ['##[x', `##${Z}[x`],
];
const PLAIN = [
  '',
  '\n\n',
  'nginx-reload/default/churn  regression  4.1  12.0  +8.2',
  'verdict: REGRESSION (1 regression) — exit 1',
  'a::b',
  'x ::error::y',
  'std::vector and C:\\x',
  ': :error::x',
  ':\u0301:error::x',
  '#[error]x',
  '# #[error]x',
  '##error]x',
  'Δp99 ✓ ✗ …',
  `:${Z}:error::x`,
  `##${Z}[error]x`,
];

test('job log: every form in the table is read by the model of the runner, and by no line once neutralised', () => {
  for (const [form, want] of FORMS) {
    assert.ok(runnerReads(form).length > 0, `the model reads ${JSON.stringify(form)}`);
    assert.equal(neutralizeCommands(form), want, JSON.stringify(form));
    assert.deepEqual(runnerReads(neutralizeCommands(form)), [], JSON.stringify(form));
  }
  // Why a zero-width space alone would not do: ICU finds `::` at the start of `:\u200b:`;
  // the runner's name, cut at offset 2, starts at the second colon and matches nothing.
  assert.ok(startsWith(`:${Z}:error::x`, '::', true));
  assert.ok(!startsWith(`:${Z}:error::x`, '::', false));
  for (const [text, want] of ALSO) {
    assert.equal(neutralizeCommands(text), want, JSON.stringify(text));
    assert.deepEqual(runnerReads(neutralizeCommands(text)), []);
  }
});

test('job log: every White_Space character before `::`, and text with none of the forms, unchanged', () => {
  for (const ws of WHITE_SPACE) {
    const line = `${ws}::error::x`;
    assert.ok(runnerReads(line).length > 0, `U+${ws.codePointAt(0).toString(16)}`);
    assert.deepEqual(runnerReads(neutralizeCommands(line)), [], `U+${ws.codePointAt(0).toString(16)}`);
  }
  for (const text of PLAIN) {
    assert.deepEqual(runnerReads(text), [], JSON.stringify(text));
    assert.equal(neutralizeCommands(text), text, JSON.stringify(text));
  }
});

test('job log: neutralising twice is neutralising once, and no cut of the text changes it', () => {
  const all = [...FORMS, ...ALSO].map(([f]) => f).join('\n');
  assert.equal(neutralizeCommands(neutralizeCommands(all)), neutralizeCommands(all));
  const want = neutralizeCommands(all);
  for (let cut = 0; cut <= all.length; cut++) {
    const { stream, text, flush } = fakeStream();
    stream.write(all.slice(0, cut));
    stream.write(Buffer.from(all.slice(cut)));
    flush();
    assert.equal(text(), want, `cut at ${cut}`);
  }
  // A character cut between two writes of its bytes.
  const { stream, text, flush } = fakeStream();
  const bytes = Buffer.from('\u00a0::error::x\n');
  stream.write(bytes.subarray(0, 1));
  stream.write(bytes.subarray(1));
  flush();
  assert.equal(text(), `\u00a0:${Z}:error::x\n`);
});

test('job log: only the commands workflowCommand built pass, once each, and their message stays one line', () => {
  const { stream, text, flush } = fakeStream();
  const cmd = workflowCommand('error', 'cell x failed:\n::warning::owned\r##[group]g 100%');
  assert.equal(cmd, `::error::cell x failed:%0A:${Z}:warning::owned%0D##${Z}[group]g 100%25`);
  stream.write(`${cmd}\n`);
  stream.write(`${cmd}\n`); // printed twice, built once
  stream.write('::error::forged\n');
  stream.write(` ${workflowCommand('notice', 'indented')}\n`);
  const split = workflowCommand('notice', 'written in pieces');
  stream.write(split.slice(0, 1));
  stream.write(`${split.slice(1)}\n`);
  flush();
  const read = runnerReads(text());
  assert.deepEqual(
    read.map((c) => [c.name, c.data]),
    [
      ['error', `cell x failed:%0A:${Z}:warning::owned%0D##${Z}[group]g 100%25`],
      ['notice', 'written in pieces'],
    ],
    text(),
  );
  assert.throws(() => workflowCommand('stop-commands', 'tok'), /not one tailgate prints/);
  assert.throws(() => workflowCommand('set-output', 'a'), /not one tailgate prints/);
});

test('job log: console and process writes of a real process pass the boundary; a crash is printed through it', () => {
  const script = [
    `import { installJobLogBoundary, workflowCommand } from ${JSON.stringify(GITHUB_OUTPUT_JS)};`,
    'installJobLogBoundary();',
    `console.log(workflowCommand('error', 'meant'));`,
    `console.log('::error::forged');`,
    `console.error('  ::warning::forged\\r##[error]forged');`,
    `process.stdout.write('::not');`,
    `process.stdout.write('ice::unterminated');`,
  ].join('\n');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(
    runnerReads(r.stdout).map((c) => c.line),
    ['::error::meant'],
  );
  assert.deepEqual(runnerReads(r.stderr), []);
  assert.match(r.stdout, /:\u200b:notice::unterminated$/);

  const crash = [
    `process.argv.splice(2, Infinity, '--version');`,
    `await import(${JSON.stringify(TAILGATE)});`,
    `setTimeout(() => { throw new Error('x\\n::error::from a crash') });`,
  ].join('\n');
  const c = spawnSync(process.execPath, ['--input-type=module', '-e', crash], { encoding: 'utf8' });
  assert.equal(c.status, 4, c.stderr);
  assert.match(c.stderr, /tailgate: internal error: Error: x/);
  assert.deepEqual(runnerReads(c.stderr), []);
});

test('job log: tailgate prints a hostile cell error, folder name and argument with no line the runner reads', async () => {
  const root = scratchDir('tg-joblog-');
  const hostile = 'boom\n::error::owned\n\u00a0##[warning]x\r  ::set-output name=a::b\u2028';
  assert.ok(runnerReads(hostile).length >= 3);
  const cell = 'nginx-reload/default/churn';
  const base = await makeRunDir({ [cell]: [1, 2].map((seed) => ({ medianMs: 4, scale: 1, seed })) }, join(root, 'b'));
  const head = await makeRunDir(
    { [cell]: [{ cellError: hostile }, { cellError: hostile }] },
    join(root, '\u3000::error::folder\n##[error]f'),
  );
  const runs = [
    ['compare', '--paired', '--base-results', base, '--head-results', head, '--out', join(root, 'v.json')],
    ['compare', '--paired', '--base-results', join(root, '\n::error::missing'), '--head-results', head],
    [`x\n::error::argv\r##[error]argv`],
  ];
  for (const args of runs) {
    const r = spawnSync(process.execPath, [TAILGATE, ...args], { encoding: 'utf8', cwd: root });
    assert.ok(r.status > 0, r.stderr);
    assert.ok(`${r.stdout}${r.stderr}`.includes('::'), 'the hostile text is printed');
    assert.deepEqual(runnerReads(r.stdout), [], r.stdout);
    assert.deepEqual(runnerReads(r.stderr), [], r.stderr);
  }
});

// A stream as the boundary sees it: its writes, collected.
function fakeStream() {
  const chunks = [];
  const stream = {
    write(chunk, encoding, cb) {
      chunks.push(chunk);
      if (cb) cb();
      return true;
    },
  };
  const flush = installJobLogBoundary([stream]);
  return { stream, text: () => chunks.join(''), flush };
}
