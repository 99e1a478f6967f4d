// What `tailgate init` adds to files a repository already has, never replacing them: a use
// added later (`init --with nightly` in an adopted repository merges the bench machine's
// profile and a nightly matrix into its bench.yaml, as added lines only) and results/ in
// .gitignore (a first local run must not dirty the repository). A merge that would not
// validate, or a bench.yaml whose maps are not blocks it can extend line by line, is
// refused with the lines to add by hand; nothing is written then.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, parseDocument } from 'yaml';
import { loadBench, parseBench } from '../config/load.js';
import { InputError } from '../errors.js';
import { writeFileIn, writeTextAtomic } from '../result/write.js';
import { BENCH_RUNNER } from './init-workflows.js';

/** bench.yaml's profile of the nightly's machine, as lines of a `profiles:` map at `indent`. */
export function nightlyProfileText(indent = '  ') {
  return `${indent}# Your bench machine (tailgate-nightly.yml runs there): its own baselines and history.
${indent}# maxRate: what one k6 carries there beside kind — measure it; 1000 is the hosted runner's.
${indent}${BENCH_RUNNER}: { description: "self-hosted bench machine, kind", runner: ${BENCH_RUNNER}, maxRate: 1000 }
`;
}

/** bench.yaml's nightly matrix, as lines of a `matrices:` map at `indent`. */
export function nightlyMatrixText(controllers, scenarios, indent = '  ', step = '  ') {
  const i2 = `${indent}${step}`;
  return `${indent}# nightly (tailgate-nightly.yml): the gates' scenarios on your bench machine every night,
${indent}# the controller alone, against that machine's committed baselines (none yet: results
${indent}# only); each run on the default branch joins its history, where change points are found.
${indent}nightly:
${i2}target: kind
${i2}profile: ${BENCH_RUNNER}
${i2}controllers: [${controllers.join(', ')}]
${i2}scenarios: [${scenarios.join(', ')}]
${i2}repetitions: 3
`;
}

// What the nightly runs: the PR gates' controllers and scenarios (init's pr, pr-failover,
// pr-routes; else every kind matrix's), each once.
function gateCells(cfg) {
  const kind = Object.entries(cfg.matrices).filter(([, m]) => m.target === 'kind');
  const gates = kind.filter(([n]) => ['pr', 'pr-failover', 'pr-routes'].includes(n));
  const from = gates.length ? gates : kind;
  const uniq = (key) => [...new Set(from.flatMap(([, m]) => m[key]))];
  return { controllers: uniq('controllers'), scenarios: uniq('scenarios') };
}

// Where lines join a top-level block map: after its last line (not its trailing blank
// lines), at its keys' indentation, an entry's own keys one step further as its first
// entry's are; null when the map is not a block this can extend.
function endOf(text, node) {
  if (!isMap(node) || node.flow || !node.items.length || !node.range) return null;
  let at = node.range[1];
  while (at > 1 && text[at - 1] === '\n' && text[at - 2] === '\n') at--;
  const column = (offset) => offset - text.lastIndexOf('\n', offset - 1) - 1;
  const key = column(node.items[0].key.range[0]);
  const inner = node.items[0].value;
  const step = isMap(inner) && !inner.flow && inner.items.length ? column(inner.items[0].key.range[0]) - key : 2;
  return { at, indent: ' '.repeat(key), step: ' '.repeat(step > 0 ? step : 2), newline: text[at - 1] !== '\n' };
}

/**
 * `init --with nightly` where bench.yaml exists: its profile and its matrix, each only
 * where absent, spliced in as lines. -> the lines that say what happened.
 */
export function mergeNightly(file) {
  const text = readFileSync(file, 'utf8');
  const cfg = loadBench(file); // the adopter's file as it is must load, or nothing is added to it
  const doc = parseDocument(text);
  const adds = [];
  if (!cfg.profiles?.[BENCH_RUNNER]) adds.push({ key: 'profiles', lines: nightlyProfileText });
  if (!cfg.matrices.nightly) {
    const { controllers, scenarios } = gateCells(cfg);
    if (!controllers.length)
      throw new InputError(
        `${file}: no kind matrix to run every night; add a "nightly" matrix (target: kind, profile: ${BENCH_RUNNER}) by hand`,
      );
    adds.push({ key: 'matrices', lines: (indent, step) => nightlyMatrixText(controllers, scenarios, indent, step) });
  }
  if (!adds.length) return [`${file}: kept (it has the ${BENCH_RUNNER} profile and a nightly matrix)`];
  const splices = adds.map((a) => {
    const node = doc.get(a.key, true);
    if (!node && a.key === 'profiles')
      return { at: text.length, text: `${text.endsWith('\n') ? '' : '\n'}profiles:\n${a.lines('  ')}`, ...a };
    const end = endOf(text, node);
    if (!end) throw byHand(file, `its ${a.key} is not a block map`, adds);
    return { at: end.at, text: `${end.newline ? '\n' : ''}${a.lines(end.indent, end.step)}`, ...a };
  });
  let merged = text;
  for (const s of [...splices].sort((a, b) => b.at - a.at))
    merged = merged.slice(0, s.at) + s.text + merged.slice(s.at);
  try {
    parseBench(merged, file);
  } catch (err) {
    throw byHand(file, `merged, it would not validate (${err.message.split('\n')[0]})`, adds);
  }
  writeTextAtomic(file, merged, { force: true });
  return [
    `${file}: merged — added ${adds.map((a) => (a.key === 'profiles' ? `profile ${BENCH_RUNNER}` : 'matrix nightly')).join(' and ')}; every other line kept as it was`,
  ];
}

function byHand(file, why, adds) {
  return new InputError(`${file}: cannot add the nightly's lines: ${why}; nothing was changed. Add them by hand:`, {
    details: adds.map((a) => `under ${a.key}:\n${a.lines('  ').trimEnd()}`),
  });
}

/** results/ (what runs here write) in <dir>/.gitignore: created, appended to, or kept. -> a line. */
export function ignoreResults(dir) {
  const file = join(dir, '.gitignore');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (text !== null && /^\/?results\/?\s*$/m.test(text)) return `${file}: kept (ignores results/)`;
  const line = '# tailgate: what runs on this machine write (npx tailgate run)\nresults/\n';
  if (text === null) writeTextAtomic(file, line, { root: dir });
  else writeFileIn(dir, file, `${text.endsWith('\n') || text === '' ? '' : '\n'}${line}`, { append: true });
  return `${file}: ${text === null ? 'written' : 'results/ added'} (a local run's results stay out of git)`;
}
