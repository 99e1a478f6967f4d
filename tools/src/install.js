// Where this code runs from: tailgate's own checkout (its Makefile, `make setup`) or a
// package installed in an adopter's repository, which has no such Makefile and reaches
// the CLI as `npx tailgate`. Hints and paths printed for people follow that.
import { existsSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageSource } from './release-ref.js';

export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** True in tailgate's checkout: the package's files (package.json `files`) never include the Makefile. */
export function fromCheckout(root = PACKAGE_ROOT) {
  return existsSync(join(root, 'Makefile'));
}

// Each make target a hint names, as an adopter types it.
const MAKE = {
  setup: 'npx tailgate setup',
  doctor: 'npx tailgate doctor',
  bench: 'npx tailgate run --matrix local',
};

/**
 * A hint in the words of where tailgate runs: `make setup` from a package is `npx tailgate
 * setup`, and docs/<page>.md — which the package does not ship — is that page on GitHub.
 */
export function hint(text, checkout = fromCheckout()) {
  if (checkout) return text;
  return String(text)
    .replace(/\bmake (setup|doctor|bench)\b/g, (m, target) => MAKE[target])
    .replace(/(?<![\w./:-])docs\/([a-z0-9-]+\.md)/g, (m, page) => docsUrl(page) ?? m);
}

/**
 * docs/<page> of the package at `root` as a reader opens it: on GitHub at the commit its
 * release names (release.json), else at the tag its `uses:` lines call; null when
 * package.json names no GitHub repository.
 */
export function docsUrl(page, root = PACKAGE_ROOT) {
  const src = packageSource(root);
  return src.repository
    ? `https://github.com/${src.repository}/blob/${src.release?.commit ?? src.ref}/docs/${page}`
    : null;
}

// A package file's path from `dir` when the package sits in a node_modules of dir or above
// it (up only, then into node_modules: `node_modules/tailgate/…`, `../node_modules/…`); else null.
function installedPath(dir, root, file) {
  const rel = relative(resolve(dir), join(root, file)).split(sep).join('/');
  return /^(\.\.\/)*node_modules\//.test(rel) ? rel : null;
}

/**
 * A file of the package (`schemas/bench.schema.json`) as a person at `from` finds it: as it
 * is in the checkout; from a package, its path relative to `from` where the package is
 * installed there, else the whole path (npx's own cache).
 */
export function packagePath(file, { from = process.cwd(), root = PACKAGE_ROOT, checkout = fromCheckout(root) } = {}) {
  if (checkout) return file;
  return installedPath(from, root, file) ?? join(root, file);
}

/**
 * The `$schema` a bench.yaml in `dir` names, for editors: where this package is installed
 * for that folder, else where installing it beside the file puts it — never a path of this
 * machine only (npx's cache, a checkout), since the file is committed.
 */
export function schemaRef(dir, root = PACKAGE_ROOT) {
  const rel =
    installedPath(dir, root, 'schemas/bench.schema.json') ?? 'node_modules/tailgate/schemas/bench.schema.json';
  return rel.startsWith('.') ? rel : `./${rel}`;
}
