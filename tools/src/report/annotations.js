// Where in the PR a verdict's cause was written: the lines the PR changed in its YAML
// (bench.yaml, values files, overlays) that set what the verdict's data-plane change or
// workload change names — the line with `maxIdleConnsPerHost` when the head's Traefik
// runs with another --serversTransport.maxIdleConnsPerHost. The commenting workflow turns
// them into a check run's annotations on those lines (publish/check-run.js), and checks
// again there that each is a file of that PR.
import { runSync } from '../exec/run.js';
import { plain } from './gfm.js';

export const ANNOTATION_LIMITS = Object.freeze({ count: 20, path: 300, message: 400 });
// Workflow files are YAML too, but nothing in them configures a data plane.
const ANNOTATED = /^(?!\.github\/)[^\0]*\.ya?ml$/;
const DIFF_BYTES = 4 << 20;

/** { path: [{ line, text }] }: the lines `head` adds or changes against `base`, YAML only. */
export function changedLines(baseRef, { cwd = process.cwd(), head = 'HEAD' } = {}) {
  if (!/^[0-9a-f]{7,64}$/i.test(String(baseRef ?? ''))) return {};
  const r = runSync(
    ['git', '-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--unified=0', `${baseRef}...${head}`],
    { cwd, timeoutMs: 30_000, maxBuffer: DIFF_BYTES },
  );
  if (r.code !== 0) return {};
  return parseDiff(r.stdout);
}

export function parseDiff(text) {
  const out = {};
  let path = null;
  let line = 0;
  for (const l of text.split('\n')) {
    if (l.startsWith('+++ ')) {
      const p = l.slice(4);
      path = p.startsWith('b/') && ANNOTATED.test(p.slice(2)) ? p.slice(2) : null;
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (hunk) {
      line = Number(hunk[1]);
      continue;
    }
    if (!path || l.startsWith('---')) continue;
    if (l.startsWith('+')) {
      (out[path] ??= []).push({ line, text: l.slice(1) });
      line++;
    }
  }
  return out;
}

// The name a change is known by in a file: its last segment (`cpu` of
// `resources haproxy-ingress.limits.cpu`, `maxIdleConnsPerHost` of
// `--serversTransport.maxIdleConnsPerHost`); a workload change's field (`rate`).
const lastName = (directive) =>
  String(directive)
    .split(/[\s.=/]+/)
    .filter(Boolean)
    .at(-1)
    ?.replace(/^-+/, '');
const mentions = (text, name) =>
  Boolean(name) && name.length >= 2 && new RegExp(`(^|[^\\w-])-*${escapeRe(name)}(?![\\w-])`, 'i').test(text);
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * [{ path, line, message }] for a verdict (doc: verdict.json) and the PR's changed lines.
 * Only a verdict that is not a pass points at lines; at most ANNOTATION_LIMITS.count.
 */
export function annotationsFor(doc, changed) {
  if (!doc || doc.exitCode === 0) return [];
  const causes = [
    ...(doc.duetChange ?? []).map((c) => ({
      name: lastName(c.directive),
      what: `the head's data plane runs ${c.directive} ${c.before} → ${c.after}`,
    })),
    ...(doc.workloadChange ?? []).map((w) => ({
      name: /^scenario "[^"]*": (\S+)/.exec(String(w))?.[1],
      what: `this PR changes the workload: ${w}`,
    })),
  ].filter((c) => c.name);
  const verdict = `tailgate: ${doc.overall}`;
  const out = [];
  for (const [path, lines] of Object.entries(changed)) {
    if (path.length > ANNOTATION_LIMITS.path) continue;
    for (const { line, text } of lines) {
      const hit = causes.filter((c) => mentions(text, c.name));
      if (!hit.length) continue;
      const message = `${verdict} — ${hit.map((c) => c.what).join('; ')}`;
      // The directive and its values come from the PR's own config: no mention, no live URL.
      out.push({ path, line, message: clip(plain(message), ANNOTATION_LIMITS.message) });
      if (out.length === ANNOTATION_LIMITS.count) return out;
    }
  }
  return out;
}

const clip = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
