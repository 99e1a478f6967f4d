// Acting on a change point: one GitHub issue, opened or updated (never duplicated), naming
// the cells, the shift and the commit range. Called from a workflow on the default
// branch through actions/github-script with the changes `history detect --out` wrote.
import { readTextFile } from '../result/read.js';
import { InputError } from '../errors.js';
import { BOT } from '../publish/github.js';
import { GITHUB_COMMENT_LIMIT } from '../report/markdown.js';
import { code, md } from '../report/gfm.js';

export const ISSUE_MARKER = '<!-- tailgate:change-points -->';
export const ISSUE_LABEL = 'tailgate-change-point';
const MAX_CHANGES_BYTES = 1 << 20;
// GitHub refuses an issue body over 65,536 characters; the rows stop short of it and the
// body says how many it left out (the night many cells shift is the night it matters).
export const ISSUE_BUDGET = GITHUB_COMMENT_LIMIT - 4_000;

const commits = (c, repoUrl) =>
  `[${md(String(c.previous).slice(0, 12))}…${md(String(c.commit).slice(0, 12))}](${repoUrl}/compare/${encodeURIComponent(c.previous)}...${encodeURIComponent(c.commit)})`;
const row = (s, c, repoUrl, mark = '') =>
  `| ${code(s.profile)} | ${code(s.cell)} | ${md(c.metric)} | ${fmt(c.before, c.metric)} → ${fmt(c.after, c.metric)}${Number.isFinite(c.ratio) ? ` (×${Number(c.ratio)})` : ''}${mark} | ${commits(c, repoUrl)} |`;

/** As many rows as fit in `budget` characters, largest shifts first, and a line for the rest. */
function fitRows(rows, budget) {
  const kept = [];
  let used = 0;
  for (const r of rows) {
    if (used + r.text.length + 1 > budget) break;
    kept.push(r.text);
    used += r.text.length + 1;
  }
  const left = rows.length - kept.length;
  return {
    kept,
    more: left
      ? `\n_${left} more shift${left > 1 ? 's' : ''} left out to fit GitHub's size limit: every one is in the job's changes.json (\`history detect --out\`) and on the history page._\n`
      : '',
  };
}
const size = (r) => (Number(r.ratio) > 0 ? Math.abs(Math.log(Number(r.ratio))) : 0);
const bySize = (a, b) => size(b) - size(a);

/** The issue body for the shifts for the worse in a changes document (or null: none). */
export function issueBody(doc, { repoUrl }) {
  const rows = [];
  for (const s of doc.series ?? [])
    for (const c of s.changes ?? [])
      if (c.direction === 'worse') rows.push({ ratio: c.ratio, text: row(s, c, repoUrl) });
  if (!rows.length) return null;
  const { kept, more } = fitRows(rows.sort(bySize), ISSUE_BUDGET);
  return [
    ISSUE_MARKER,
    `### tailgate: ${rows.length} shift${rows.length > 1 ? 's' : ''} for the worse on main`,
    '',
    'Change points in the history of main (`tailgate history detect`), each between the two commits named:',
    '',
    '| profile | cell | metric | before → after | commits |',
    '|---|---|---|--:|---|',
    ...kept,
    more,
    `_Updated ${String(doc.generatedAt ?? '').slice(0, 19)}Z; this issue is updated, never duplicated, while it is open._`,
  ].join('\n');
}

/**
 * The change points a baseline-refresh PR cites (`history detect --markdown`): per cell
 * and metric the latest shift, either direction — what made the old baselines stale.
 */
export function changesMarkdown(doc, { repoUrl = 'https://github.com' } = {}) {
  const rows = [];
  for (const s of doc.series ?? []) {
    const latest = new Map();
    for (const c of s.changes ?? []) latest.set(c.metric, c);
    for (const c of latest.values())
      rows.push({ ratio: c.ratio, text: row(s, c, repoUrl, c.direction === 'worse' ? ' 🔺' : ' 🔻') });
  }
  if (!rows.length) return 'No change point in the history of main (`tailgate history detect`).\n';
  const { kept, more } = fitRows(rows, ISSUE_BUDGET);
  return [
    'Change points in the history of main (`tailgate history detect`), the latest per cell and metric — what made the old baselines stale:',
    '',
    '| profile | cell | metric | before → after | commits |',
    '|---|---|---|--:|---|',
    ...kept,
    more,
  ].join('\n');
}

function fmt(v, metric) {
  if (!Number.isFinite(v)) return '–';
  return metric === 'errors' ? `${(100 * v).toFixed(3)}%` : `${v.toFixed(2)} ms`;
}

/** Opens or updates tailgate's one change-point issue. -> {action: created|updated|none, number} */
export async function upsertChangeIssue(github, { owner, repo, body, botLogin = BOT }) {
  const open = await github.paginate(github.rest.issues.listForRepo, {
    owner,
    repo,
    state: 'open',
    labels: ISSUE_LABEL,
    per_page: 100,
  });
  // Only an issue the workflow's own identity opened: anyone can open one with the label
  // and the marker, and it must not be overwritten (as the sticky comment checks its author).
  const mine = open.find((i) => !i.pull_request && i.user?.login === botLogin && i.body?.startsWith(ISSUE_MARKER));
  if (!body) return { action: 'none', number: mine?.number ?? null };
  if (mine) {
    await github.rest.issues.update({ owner, repo, issue_number: mine.number, body });
    return { action: 'updated', number: mine.number };
  }
  const { data } = await github.rest.issues.create({
    owner,
    repo,
    title: 'tailgate: main shifted for the worse',
    body,
    labels: [ISSUE_LABEL],
  });
  return { action: 'created', number: data.number };
}

/** actions/github-script entry point: CHANGES_FILE is `history detect --out`. */
export async function publishChangePoints({ github, context, core, env = process.env }) {
  const { owner, repo } = context.repo;
  let doc;
  try {
    doc = JSON.parse(readTextFile(env.CHANGES_FILE, { maxBytes: MAX_CHANGES_BYTES }));
  } catch (err) {
    throw new InputError(`${env.CHANGES_FILE}: cannot read the change points (${err.code ?? 'not JSON'})`);
  }
  if (doc?.kind !== 'tailgate.history-changes')
    throw new InputError(`${env.CHANGES_FILE}: not a tailgate.history-changes document`);
  const body = issueBody(doc, { repoUrl: `${env.GITHUB_SERVER_URL ?? 'https://github.com'}/${owner}/${repo}` });
  const r = await upsertChangeIssue(github, { owner, repo, body });
  core.info(`change-point issue: ${r.action}${r.number ? ` #${r.number}` : ''}`);
  return r;
}
