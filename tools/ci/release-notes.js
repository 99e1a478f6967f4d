#!/usr/bin/env node
// The release's own facts, read from the repository: does the tag name package.json's
// version, and what does CHANGELOG.md say for it. Used by tools/ci/release.sh:
//   release-notes.js check <tag>     exit 0, or 2 naming the file, field and rule
//   release-notes.js notes <version> the CHANGELOG section's body on stdout
// A version's section is a level-2 heading starting with the version, bare or in
// brackets, with or without a leading v: "## 1.2.0 — 2026-12-01", "## [1.2.0]".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTag } from '../src/release-ref.js';

const ROOT = new URL('../../', import.meta.url).pathname;
// Tags are parsed where init reads them too (tools/src/release-ref.js): one semver rule.
export { parseTag };

// The most a GitHub release's body holds: more is refused (HTTP 422, "body is too long
// (maximum is 125000 characters)"). Checked by `release.sh check`, before npm publish: a
// body GitHub refuses after publishing leaves a package with no release and an unmoved
// major tag.
export const GITHUB_BODY_MAX = 125_000;

/** Every reason GitHub would refuse `body` as the notes of `version`'s release. */
export function notesProblems(body, version) {
  const where = `CHANGELOG.md: the "## ${version}" section`;
  const problems = [];
  const chars = [...body].length; // characters as GitHub counts them, not UTF-16 units
  if (chars > GITHUB_BODY_MAX)
    problems.push(
      `${where} is ${chars} characters; a GitHub release body holds at most ${GITHUB_BODY_MAX} — shorten it (link the full CHANGELOG for the rest)`,
    );
  if (body.includes('\0')) problems.push(`${where} holds a NUL character, which a GitHub release body cannot`);
  return problems;
}

/** The body of `version`'s section of a changelog text (trimmed), or null. */
export function changelogSection(text, version) {
  const lines = text.split('\n');
  const esc = version.replace(/[.+]/g, '\\$&');
  const heading = new RegExp(`^## \\[?v?${esc}\\]?(?:$|[\\s—–])`);
  const start = lines.findIndex((l) => heading.test(l));
  if (start < 0) return null;
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim();
}

/** Every reason the tag cannot be released, each naming file, field and rule. */
export function releaseProblems(tag, { pkg, changelog }) {
  const t = parseTag(tag);
  if (!t) return [`tag "${tag}": not a version tag (v<major>.<minor>.<patch>[-<pre-release>], semver)`];
  const problems = [];
  if (pkg.version !== t.version)
    problems.push(
      `package.json: version is "${pkg.version}", the tag ${tag} says "${t.version}" — bump package.json (and CHANGELOG) in a commit, then tag that commit`,
    );
  const body = changelogSection(changelog, t.version);
  if (body === null)
    problems.push(`CHANGELOG.md: no "## ${t.version}" section — move the Unreleased entries under one`);
  else if (!body) problems.push(`CHANGELOG.md: the "## ${t.version}" section is empty — say what the release changes`);
  else problems.push(...notesProblems(body, t.version));
  return problems;
}

function main([cmd, arg]) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
  if (cmd === 'check') {
    const problems = releaseProblems(arg, { pkg, changelog });
    for (const p of problems) console.error(`release: ${p}`);
    if (problems.length) return 2;
    console.log(
      `release: ${arg} is package.json's version ${pkg.version}, and CHANGELOG.md has its section, fit for a GitHub release`,
    );
    return 0;
  }
  if (cmd === 'notes') {
    const body = changelogSection(changelog, String(arg).replace(/^v/, ''));
    if (body === null) {
      console.error(`release: CHANGELOG.md has no "## ${arg}" section`);
      return 2;
    }
    const problems = notesProblems(body, String(arg).replace(/^v/, ''));
    for (const p of problems) console.error(`release: ${p}`);
    if (problems.length) return 2;
    process.stdout.write(`${body}\n`);
    return 0;
  }
  console.error('usage: release-notes.js check <tag> | notes <version>');
  return 2;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
