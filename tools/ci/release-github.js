#!/usr/bin/env node
// The release's two writes on GitHub, through its REST API (GITHUB_API_URL,
// GITHUB_REPOSITORY, GITHUB_TOKEN — on a laptop: GITHUB_TOKEN=$(gh auth token)):
//   release-github.js release <tag> <notes-file>   the GitHub release, notes from the file;
//                                                  an existing one's notes are updated
//   release-github.js move-major-tag <tag> <sha>   refs/tags/v<major> -> sha, so that
//                                                  `uses: …@v0` (v<major>: what init writes) resolves to it
// Both can be re-run. A pre-release never moves the major tag, and neither does a release
// older than one already under it (a patch to an earlier minor).
import { readFileSync } from 'node:fs';
import { majorTag, parseTag } from '../src/release-ref.js';
import { notesProblems } from './release-notes.js';

async function api(method, path, body) {
  const base = process.env.GITHUB_API_URL || 'https://api.github.com';
  const res = await fetch(`${base}/repos/${process.env.GITHUB_REPOSITORY}${path}`, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${process.env.GITHUB_TOKEN}`,
      'x-github-api-version': '2022-11-28',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  return { status: res.status, data };
}

function must(r, what) {
  if (r.status >= 200 && r.status < 300) return r.data;
  throw new Error(`${what}: HTTP ${r.status} ${r.data?.message ?? ''}`.trim());
}

export async function release(tag, notesFile) {
  const t = parseTag(tag);
  const body = readFileSync(notesFile, 'utf8');
  // release.sh check refused these before publishing; here too, before any request.
  const problems = notesProblems(body, t.version);
  if (problems.length) throw new Error(problems.join('; '));
  const found = await api('GET', `/releases/tags/${encodeURIComponent(tag)}`);
  if (found.status === 200) {
    must(await api('PATCH', `/releases/${found.data.id}`, { body }), `updating release ${tag}`);
    return `release ${tag}: existed, notes updated`;
  }
  if (found.status !== 404) must(found, `looking up release ${tag}`);
  const made = must(
    await api('POST', '/releases', {
      tag_name: tag,
      name: tag,
      body,
      prerelease: t.prerelease,
      make_latest: String(!t.prerelease),
    }),
    `creating release ${tag}`,
  );
  return `release ${tag}: created${t.prerelease ? ' (pre-release)' : ''} ${made.html_url ?? ''}`.trimEnd();
}

export async function moveMajorTag(tag, sha) {
  const t = parseTag(tag);
  // The tag `tailgate init` of this version writes into callers' workflows (release-ref.js).
  const major = majorTag(tag);
  if (!major) return `v${t.major}: not moved (${tag} is a pre-release)`;
  const refs = must(await api('GET', `/git/matching-refs/tags/${major}.`), `listing tags ${major}.*`) ?? [];
  const newer = refs
    .map((r) => parseTag(r.ref.replace('refs/tags/', '')))
    .filter((o) => o && !o.prerelease && o.major === t.major)
    .find((o) => o.minor > t.minor || (o.minor === t.minor && o.patch > t.patch));
  if (newer) return `${major}: not moved (v${newer.version} is newer than ${tag})`;
  const moved = await api('PATCH', `/git/refs/tags/${major}`, { sha, force: true });
  // GitHub answers 422 "Reference does not exist" for the first release of a major.
  if (moved.status === 422 || moved.status === 404)
    must(await api('POST', '/git/refs', { ref: `refs/tags/${major}`, sha }), `creating tag ${major}`);
  else must(moved, `moving tag ${major}`);
  return `${major}: now at ${sha} (${tag})`;
}

async function main([cmd, tag, arg]) {
  for (const v of ['GITHUB_REPOSITORY', 'GITHUB_TOKEN'])
    if (!process.env[v]) throw new Error(`${v} is not set (on a laptop: GITHUB_TOKEN=$(gh auth token))`);
  if (!parseTag(tag)) throw new Error(`tag "${tag}": not a version tag`);
  if (cmd === 'release' && arg) return release(tag, arg);
  if (cmd === 'move-major-tag' && /^[0-9a-f]{40}$/.test(arg ?? '')) return moveMajorTag(tag, arg);
  throw new Error('usage: release-github.js release <tag> <notes-file> | move-major-tag <tag> <40-hex sha>');
}

if (import.meta.url === `file://${process.argv[1]}`)
  main(process.argv.slice(2)).then(
    (line) => console.log(line),
    (err) => {
      console.error(`release: ${err.message}`);
      process.exitCode = 4;
    },
  );
