// Which ref of tailgate's repository a caller's `uses:` names, decided in one place: the
// release's move-major-tag step (tools/ci/release-github.js) moves the tag majorTag names,
// and `tailgate init` writes callerRef of the package it runs from — so the workflows init
// writes call the tag a release of that very version moved (v0 for 0.x, v1 for 1.x). A
// package packed by the release (tools/ci/release.sh pack) also carries release.json, the
// commit its tag names: init then pins that commit, the moving tag only as its comment.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SEMVER = /^v(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

/** "v1.2.0" -> { version: "1.2.0", major: 1, prerelease: false }; null when not a version tag. */
export function parseTag(tag) {
  const m = SEMVER.exec(String(tag));
  if (!m) return null;
  return {
    version: String(tag).slice(1),
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    prerelease: Boolean(m[4]),
  };
}

/** The tag a release of `tag` moves ("v0" for v0.3.1); null for a pre-release, which moves none. */
export function majorTag(tag) {
  const t = parseTag(tag);
  return t && !t.prerelease ? `v${t.major}` : null;
}

/**
 * The ref a caller of tailgate at `version` names: the major tag its release moved — or,
 * for a pre-release, its own tag (it moves no major tag, and its own is pushed).
 */
export function callerRef(version) {
  if (!parseTag(`v${version}`)) throw new Error(`package.json: version "${version}" is not semver`);
  return majorTag(`v${version}`) ?? `v${version}`;
}

const NAME = '([A-Za-z0-9-]+)/([A-Za-z0-9._-]+?)';
const REPO_FORMS = [
  new RegExp(`^(?:github:)?${NAME}(?:\\.git)?$`), // "owner/name", "github:owner/name"
  new RegExp(`^(?:git\\+)?(?:https?|ssh|git)://(?:[^@/]+@)?github\\.com/${NAME}(?:\\.git)?/?$`),
  new RegExp(`^git@github\\.com:${NAME}(?:\\.git)?$`),
];

/** package.json's `repository` (string or { url }) as "owner/name" on GitHub; null otherwise. */
export function githubRepository(field) {
  const url = typeof field === 'string' ? field : field?.url;
  for (const re of REPO_FORMS) {
    const m = re.exec(String(url ?? ''));
    if (m) return `${m[1]}/${m[2]}`;
  }
  return null;
}

export const PACKAGE_ROOT = new URL('../../', import.meta.url).pathname;

/** The file release.sh pack writes into the package: { tag: "v1.2.0", commit: 40 hex }. */
export const RELEASE_FILE = 'release.json';
const SHA = /^[0-9a-f]{40}$/;

/**
 * The tailgate package at `root`: { repository: "owner/name" | null, ref, version,
 * release: { tag, commit } | null } — release only where the package names the commit of
 * its own version's tag (a checkout or a git install names none).
 */
export function packageSource(root = PACKAGE_ROOT) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return {
    repository: githubRepository(pkg.repository),
    ref: callerRef(pkg.version),
    version: pkg.version,
    release: releaseOf(root, pkg.version),
  };
}

// A release.json of another version (a stale file) or without a full SHA names nothing.
function releaseOf(root, version) {
  const file = join(root, RELEASE_FILE);
  if (!existsSync(file)) return null;
  let r;
  try {
    r = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  return r?.tag === `v${version}` && SHA.test(String(r.commit)) ? { tag: r.tag, commit: r.commit } : null;
}
