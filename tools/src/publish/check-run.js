// The verdict as a GitHub check run on the PR's head commit, beside the sticky comment:
// reviewers see it among the PR's checks, and its annotations on the lines of the diff
// that set what the verdict names. Created once per head commit, then updated.
// Where the caller did not grant `checks: write`, the comment still stands: the check run
// is left out with a warning (an adopter's older workflow).
import { ANNOTATION_LIMITS } from '../report/annotations.js';

export const CHECK_NAME = 'tailgate';
/** Each gate its own check run; the gate of matrix "pr" keeps the name adopters require. */
export const checkNameFor = (gate) => (!gate || gate === 'pr' ? CHECK_NAME : `${CHECK_NAME} (${gate})`);
// GitHub's limit for a check run's output.summary.
export const CHECK_SUMMARY_LIMIT = 65_535;
const APP = 'github-actions';

/**
 * success only for a pass or an improvement (exit 0) that is the verdict of record: a
 * first look that asked for a confirmation round and is all that arrived means the round
 * never reported — inconclusive, never a success.
 */
export const conclusionOf = (meta) => (meta.exitCode === 0 && !meta.pending ? 'success' : 'failure');

/**
 * The annotations the artifact asks for, kept only on files this PR changed (GitHub's
 * own list of the PR's files, never the artifact's): a forked or forged artifact cannot
 * point into another PR or at a file the PR did not touch.
 */
export async function prAnnotations(github, { owner, repo, pullNumber, meta }) {
  const wanted = meta.annotations ?? [];
  if (!wanted.length) return [];
  const files = await github.paginate(github.rest.pulls.listFiles, {
    owner,
    repo,
    pull_number: pullNumber,
    per_page: 100,
  });
  const changed = new Set(files.filter((f) => f.status !== 'removed').map((f) => f.filename));
  const level = conclusionOf(meta) === 'success' ? 'notice' : 'failure';
  return wanted
    .filter((a) => changed.has(a.path))
    .slice(0, ANNOTATION_LIMITS.count)
    .map((a) => ({
      path: a.path,
      start_line: a.line,
      end_line: a.line,
      annotation_level: level,
      title: 'tailgate',
      message: a.message,
    }));
}

export function checkOutput(body, annotations) {
  const title = /^### (.+)$/m.exec(body)?.[1]?.replace(/[*_`]/g, '').slice(0, 200) ?? 'tailgate';
  const summary =
    body.length > CHECK_SUMMARY_LIMIT
      ? `${body.slice(0, CHECK_SUMMARY_LIMIT - 200)}\n\n_(truncated to GitHub's check summary limit; the PR comment has it all)_\n`
      : body;
  return { title, summary, annotations };
}

/**
 * Creates tailgate's check run on the head commit, or updates the one this gate workflow
 * made. `source` is that workflow's file (the triggering run's path), kept as the check
 * run's external_id. A check run's name is the PR commit's, not one workflow's: when one of
 * the same name comes from another workflow, two workflows publish one gate and whichever
 * published last would decide it — every check run of the name becomes a failure that says
 * so instead, looked for after this write so that in no order, not even at once, is a
 * shared check a success while one of its gates found a regression. A check run made
 * before external_id was kept has no source: it is taken as this workflow's.
 */
export async function upsertCheckRun(github, { owner, repo, headSha, meta, output, source = null }) {
  const name = checkNameFor(meta.gate);
  const list = async () => {
    const { data } = await github.rest.checks.listForRef({
      owner,
      repo,
      ref: headSha,
      check_name: name,
      per_page: 100,
    });
    return (data.check_runs ?? []).filter((c) => c.app?.slug === APP && c.head_sha === headSha && c.name === name);
  };
  const ours = (c) => !source || !c.external_id || c.external_id === source;
  const mine = (await list()).find(ours);
  const fields = {
    status: 'completed',
    conclusion: conclusionOf(meta),
    output,
    ...(source ? { external_id: source } : {}),
  };
  let written;
  if (mine) {
    await github.rest.checks.update({ owner, repo, check_run_id: mine.id, ...fields });
    written = { action: 'updated', id: mine.id };
  } else {
    const created = await github.rest.checks.create({ owner, repo, name, head_sha: headSha, ...fields });
    written = { action: 'created', id: created.data.id };
  }
  const all = await list();
  if (all.every(ours)) return written;
  const workflows = [...new Set(all.map((c) => c.external_id || '(a workflow that did not say)'))].sort();
  const shared = sharedCheckOutput(name, meta.gate, workflows);
  for (const c of all)
    await github.rest.checks.update({ owner, repo, check_run_id: c.id, status: 'completed', ...shared });
  return { ...written, shared: workflows };
}

/** The failure every check run of one name gets when more than one workflow publishes it. */
export function sharedCheckOutput(name, gate, workflows) {
  return {
    conclusion: 'failure',
    output: {
      title: `${name}: gate "${gate ?? 'pr'}" is published by more than one workflow`,
      summary: sharedNote(gate, workflows),
      annotations: [],
    },
  };
}

export function sharedNote(gate, workflows) {
  return `⚠️ **Gate \`${gate ?? 'pr'}\` is published by more than one workflow on this commit** (${workflows.map((w) => `\`${w}\``).join(', ')}): each replaces the other's comment and check run, so neither verdict stands — a failure. A gate's name is one check run and one comment per commit, whatever workflow runs it: give each gate.yml call its own \`name\` input (plan refuses two calls of one name it can read; a name set at run time is caught here).`;
}
