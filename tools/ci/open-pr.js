#!/usr/bin/env node
// Opens a pull request through GitHub's REST API (open-baseline-pr.sh): a laptop runs it
// the same with GITHUB_REPOSITORY and GH_TOKEN set. A PR already open from that branch is
// kept (a re-run opens no second). Prints the PR's URL.
//   open-pr.js <base> <head branch> <title> <body file>
// Env: GITHUB_REPOSITORY (owner/name), GH_TOKEN, [GITHUB_API_URL].
import { readFileSync } from 'node:fs';
import { api, must } from './github-api.js';

export async function openPr({ repository, token, base, head, title, body }) {
  const made = await api('POST', `/repos/${repository}/pulls`, { token, body: { base, head, title, body } });
  if (made.status === 201) return { url: made.data.html_url ?? `#${made.data.number}`, opened: true };
  // 422: "A pull request already exists for owner:head" — find it.
  if (made.status === 422) {
    const owner = repository.split('/')[0];
    const open = must(
      await api('GET', `/repos/${repository}/pulls?head=${encodeURIComponent(`${owner}:${head}`)}&state=open`, {
        token,
      }),
      `looking up the open PR from ${head}`,
    );
    if (open?.length) return { url: open[0].html_url ?? `#${open[0].number}`, opened: false };
  }
  return must(made, `opening a PR from ${head} into ${base}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base, head, title, bodyFile] = process.argv.slice(2);
  const { GITHUB_REPOSITORY: repository, GH_TOKEN: token } = process.env;
  const go = async () => {
    if (!base || !head || !title || !bodyFile) throw new Error('usage: open-pr.js <base> <head> <title> <body file>');
    if (!/^[\w.-]+\/[\w.-]+$/.test(repository ?? '')) throw new Error('GITHUB_REPOSITORY is not owner/name');
    if (!token) throw new Error('GH_TOKEN is not set');
    const pr = await openPr({ repository, token, base, head, title, body: readFileSync(bodyFile, 'utf8') });
    return `${pr.opened ? 'opened' : 'already open'}: ${pr.url}`;
  };
  go().then(
    (line) => console.log(line),
    (err) => {
      console.error(`open-pr: ${err.message}`);
      process.exitCode = 4;
    },
  );
}
