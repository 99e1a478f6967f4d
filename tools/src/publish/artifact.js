// The comment artifact comes from a workflow that ran PR code: hostile input.
// Exactly two regular files, small, no links, no HTML beyond what tailgate itself
// renders, no live mentions, links only to this repository's GitHub pages.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors.js';
import { shown } from '../names.js';
import { GITHUB_COMMENT_LIMIT, markerFor } from '../report/markdown.js';
import { VERDICTS as VERDICT_NAMES } from '../result/verdicts.js';
import { ANNOTATION_LIMITS } from '../report/annotations.js';
import { GATE_NAME } from '../plan/gate-identity.js';

export const ARTIFACT_FILES = { 'comment.md': GITHUB_COMMENT_LIMIT, 'meta.json': 16384 };
const ALLOWED_TAGS = /<\/?(details|summary|sub)>|<!-- tailgate:sticky-comment(:[a-z0-9.-]{1,80})? -->/g;
// A gate's name: its matrix, or its config and matrix (plan/gate-identity.js).
export { GATE_NAME };
const VERDICTS = new Set(VERDICT_NAMES);

export function readCommentArtifact(dir, { repoUrl }) {
  const problems = [];
  let names;
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new InputError(`comment artifact ${dir}: cannot read (${err.code})`);
  }
  for (const name of names) {
    if (!(name in ARTIFACT_FILES)) problems.push(`unexpected entry ${JSON.stringify(name)}`);
    else {
      const st = lstatSync(join(dir, name));
      if (!st.isFile() || st.isSymbolicLink()) problems.push(`${name} is not a regular file`);
      else if (st.size > ARTIFACT_FILES[name])
        problems.push(`${name} is ${st.size} bytes, over the ${ARTIFACT_FILES[name]} limit`);
    }
  }
  for (const name of Object.keys(ARTIFACT_FILES)) if (!names.includes(name)) problems.push(`${name} is missing`);
  if (problems.length) throw new InputError(`comment artifact rejected`, { details: problems });

  const body = readFileSync(join(dir, 'comment.md'), 'utf8');
  const meta = parseMeta(readFileSync(join(dir, 'meta.json'), 'utf8'));
  checkBody(body, repoUrl, meta.gate);
  return { body, meta };
}

const META_KEYS = ['kind', 'schemaVersion', 'overall', 'exitCode', 'round', 'pending', 'gate', 'annotations'];

function parseMeta(text) {
  let m;
  try {
    m = JSON.parse(text);
  } catch {
    throw new InputError('comment artifact rejected: meta.json is not JSON');
  }
  const ok =
    m &&
    m.kind === 'tailgate.comment' &&
    m.schemaVersion === 1 &&
    VERDICTS.has(m.overall) &&
    Number.isInteger(m.exitCode) &&
    (m.annotations === undefined || validAnnotations(m.annotations)) &&
    (m.round === undefined || m.round === 'first' || m.round === 'confirmation') &&
    (m.pending === undefined || typeof m.pending === 'boolean') &&
    (m.gate === undefined || (typeof m.gate === 'string' && GATE_NAME.test(m.gate))) &&
    Object.keys(m).every((k) => META_KEYS.includes(k));
  if (!ok)
    throw new InputError(
      `comment artifact rejected: meta.json must be {kind: "tailgate.comment", schemaVersion: 1, overall, exitCode[, round: first|confirmation, pending: boolean, gate: a gate's name, annotations: at most ${ANNOTATION_LIMITS.count} of {path, line, message}]} and nothing else`,
    );
  return m;
}

// A path inside the repository (no '..', not absolute, no control characters), a line
// number, a message of plain text. Which PR's files they may name is checked against
// that PR (check-run.js), never taken from here.
const hasControl = (text) => [...text].some((ch) => ch.codePointAt(0) < 32 || ch.codePointAt(0) === 127);
function validAnnotations(list) {
  return (
    Array.isArray(list) &&
    list.length <= ANNOTATION_LIMITS.count &&
    list.every(
      (a) =>
        a &&
        typeof a === 'object' &&
        Object.keys(a).every((k) => ['path', 'line', 'message'].includes(k)) &&
        typeof a.path === 'string' &&
        a.path.length > 0 &&
        a.path.length <= ANNOTATION_LIMITS.path &&
        !hasControl(a.path) &&
        !a.path.includes('\\') &&
        !a.path.startsWith('/') &&
        !a.path.split('/').some((seg) => seg === '..' || seg === '.' || seg === '') &&
        Number.isInteger(a.line) &&
        a.line >= 1 &&
        a.line <= 1_000_000 &&
        typeof a.message === 'string' &&
        a.message.length <= ANNOTATION_LIMITS.message &&
        !hasControl(a.message.replaceAll('\n', ' ')),
    )
  );
}

export function checkBody(body, repoUrl, gate = null) {
  const problems = [];
  if (!body.startsWith(markerFor(gate))) problems.push("comment.md does not start with its gate's tailgate marker");
  if (/<[A-Za-z!/?]/.test(body.replace(ALLOWED_TAGS, '')))
    problems.push('comment.md contains HTML other than <details>, <summary>, <sub>');
  // GitHub turns @name into a mention anywhere, also right after a backtick, and
  // decodes character references: tailgate's own renderer writes "@\u200b" and only
  // &amp; &lt; &gt;, so anything else is not ours.
  if (/@[A-Za-z0-9]/.test(body)) problems.push('comment.md contains an @-mention');
  if (/&(?!(amp|lt|gt);)[#A-Za-z0-9]+;?/.test(body))
    problems.push('comment.md contains a character reference other than &amp; &lt; &gt;');
  for (const dest of linkDestinations(body))
    if (!linkStaysIn(dest, repoUrl))
      problems.push(`comment.md links outside ${repoUrl}: ${shown(JSON.stringify(dest.slice(0, 80)), 1000)}`);
  // Autolinks: bare http(s):// and www. become links without any bracket.
  const withoutLinks = body.replace(/\]\(([^)]*)\)/g, '](…)');
  if (/\b(https?|ftp):\/\/|\bwww\./i.test(withoutLinks)) problems.push('comment.md contains a bare URL');
  if (/\]\s*\[|^[\s>*+\-\d.]*\[[^\]]+\]:/m.test(body)) problems.push('comment.md contains reference-style links');
  if (problems.length) throw new InputError('comment artifact rejected', { details: problems });
}

/**
 * Every inline link or image destination, read as cmark reads one after "](": <…>, or up
 * to whitespace or the ')' that balances it, backslash escapes kept for linkStaysIn.
 */
export function linkDestinations(body) {
  const out = [];
  for (let at = body.indexOf(']('); at >= 0; at = body.indexOf('](', at + 2)) {
    let i = at + 2;
    while (body[i] === ' ' || body[i] === '\t' || body[i] === '\n') i++;
    let dest = '';
    if (body[i] === '<') {
      const end = body.indexOf('>', i);
      dest = body.slice(i + 1, end < 0 ? undefined : end);
    } else {
      let depth = 0;
      for (; i < body.length && !/\s/.test(body[i]); i++) {
        if (body[i] === '\\' && i + 1 < body.length) {
          dest += body[i] + body[i + 1];
          i++;
          continue;
        }
        if (body[i] === '(') depth++;
        if (body[i] === ')' && depth-- === 0) break;
        dest += body[i];
      }
    }
    out.push(dest);
  }
  return out;
}

/**
 * Whether a link destination, followed as a browser follows it, stays in the repository:
 * Markdown's backslash escapes and the character references tailgate writes undone, then
 * resolved by the WHATWG URL parser (which reads '\\' as '/' and %2e%2e as '..' and
 * removes dot segments). A prefix match is not enough: ${repoUrl}/../../other/repo
 * starts with the repository's URL and is another repository.
 */
export function linkStaysIn(dest, repoUrl) {
  const raw = dest
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  let url;
  let repo;
  try {
    url = new URL(raw); // relative links resolve against whatever page shows them: refused
    repo = new URL(`${repoUrl.replace(/\/+$/, '')}/`);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' &&
    url.protocol === repo.protocol &&
    url.host === repo.host &&
    !url.username &&
    !url.password &&
    url.pathname.toLowerCase().startsWith(repo.pathname.toLowerCase())
  );
}
