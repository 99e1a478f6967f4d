#!/usr/bin/env node
// The shape of tools/src at a commit, for a refactoring's before/after: lines per file,
// the longest functions, and imports that run against the flow (the stage table of
// tools/test/unit/import-flow.test.js). Reads git objects, so any commit can be measured
// without checking it out.
// Usage: node tools/scripts/code-shape.js [<commit>=HEAD]
import { execFileSync } from 'node:child_process';
import { dirname, join, normalize } from 'node:path';
import * as acorn from 'acorn';
import { ORDER, stageOf } from '../test/helpers/stages.js';

const commit = process.argv[2] ?? 'HEAD';
if (!/^[\w./~^-]{1,80}$/.test(commit)) {
  console.error('code-shape: a commit name (letters, digits, . / ~ ^ -)');
  process.exit(2);
}
const git = (...args) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 64 << 20 });
const files = git('ls-tree', '-r', '--name-only', commit, 'tools/src/')
  .split('\n')
  .filter((f) => f.endsWith('.js'));

const sizes = [];
const fns = [];
let against = [];
for (const f of files) {
  const text = git('show', `${commit}:${f}`);
  const rel = f.slice('tools/src/'.length);
  sizes.push([text.split('\n').length - 1, rel]);
  const ast = acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  walk(ast, (n) => {
    if (!/Function/.test(n.type)) return;
    fns.push([n.loc.end.line - n.loc.start.line + 1, `${rel}:${n.loc.start.line}`]);
  });
  for (const n of ast.body.filter((x) => x.type === 'ImportDeclaration' && x.source.value.startsWith('.'))) {
    const to = normalize(join(dirname(rel), n.source.value));
    const [a, b] = [stageOf(rel), stageOf(to)];
    if (ORDER.indexOf(b) > ORDER.indexOf(a)) against.push(`${rel} (${a}) → ${to} (${b})`);
  }
}
against = [...new Set(against)];

function walk(node, visit) {
  if (!node || typeof node.type !== 'string') return;
  visit(node);
  for (const v of Object.values(node))
    if (Array.isArray(v)) v.forEach((c) => walk(c, visit));
    else if (v && typeof v === 'object') walk(v, visit);
}

const top = (list, n) => [...list].sort((x, y) => y[0] - x[0]).slice(0, n);
const total = sizes.reduce((a, [n]) => a + n, 0);
const median = [...sizes].sort((x, y) => x[0] - y[0])[sizes.length >> 1][0];
console.log(`tools/src at ${git('rev-parse', '--short', commit).trim()}: ${files.length} files, ${total} lines`);
console.log(
  `lines per file: median ${median}, over 400: ${sizes.filter(([n]) => n > 400).length}, over 300: ${sizes.filter(([n]) => n > 300).length}`,
);
console.log(
  `longest files: ${top(sizes, 5)
    .map(([n, f]) => `${f} ${n}`)
    .join(', ')}`,
);
console.log(
  `functions over 60 lines: ${fns.filter(([n]) => n > 60).length}; longest: ${top(fns, 5)
    .map(([n, f]) => `${f} ${n}`)
    .join(', ')}`,
);
console.log(`imports against the flow: ${against.length}${against.length ? `\n  ${against.join('\n  ')}` : ''}`);
