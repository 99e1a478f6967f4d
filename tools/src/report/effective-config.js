// What a tuning really changed in the data plane: the configuration each cell's proxy
// ran with (the generated nginx.conf / haproxy.cfg kept under <cell>/proxy/), reduced to
// directives, compared with the same controller's `default` cell. A tuning that changes
// nothing — or the opposite of what was meant — shows here, not in a values file.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors.js';
import { readTextFile } from '../result/read.js';
import { code } from './markdown.js';

const FILES = ['nginx.conf', 'haproxy.cfg', 'traefik-args.txt', 'envoy-config.json'];
const FORMAT = { 'haproxy.cfg': 'haproxy', 'traefik-args.txt': 'args', 'envoy-config.json': 'envoy' };

/**
 * directive -> value, from a proxy config (format 'nginx' or 'haproxy'); addresses,
 * ports and paths normalized away, since they differ between any two cells.
 */
export function directives(text, format = 'nginx') {
  if (format === 'envoy') return envoyDirectives(text);
  const out = new Map();
  const context = [];
  const put = (name, value) => {
    const key = [...context.filter((c) => c === 'upstream' || c === 'events' || format === 'haproxy'), name].join(' ');
    out.set(key, out.has(key) ? `${out.get(key)} | ${value}` : value);
  };
  const statement = (stmt) => {
    const norm = stmt
      .replace(/\d+\.\d+\.\d+\.\d+(:\d+)?/g, '<addr>')
      .replace(/\/[^\s;]*/g, '<path>')
      .trim();
    if (!norm) return;
    const [name, ...rest] = norm.split(/\s+/);
    // Upstream server lines list the endpoints of the moment (how many, which enabled),
    // not the tuning: leave them out of the comparison.
    if (name === 'server' && context.some((c) => c === 'upstream' || c === 'backend')) return;
    put(name, rest.join(' '));
  };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) continue;
    if (format === 'args') {
      // --flag=value, one per line (Traefik's static configuration)
      const [flag, ...v] = line.split('=');
      put(flag, v.join('=') || 'true');
      continue;
    }
    if (format === 'haproxy') {
      const [name] = line.split(/\s+/);
      if (/^(global|defaults|frontend|backend|listen|resolvers|userlist|peers|program)$/.test(name)) {
        context.length = 0;
        context.push(name);
        continue;
      }
      statement(line);
      continue;
    }
    // nginx: blocks may open and close on one line (events { worker_connections 512; }).
    let rest = line;
    while (rest) {
      const open = rest.indexOf('{');
      const semi = rest.indexOf(';');
      const close = rest.indexOf('}');
      const next = [open, semi, close].filter((i) => i >= 0).sort((a, b) => a - b)[0];
      if (next === undefined) {
        statement(rest);
        break;
      }
      const head = rest.slice(0, next).trim();
      if (next === open) context.push(head.split(/\s+/)[0]);
      else if (next === semi) statement(head);
      else {
        if (head) statement(head);
        context.pop();
      }
      rest = rest.slice(next + 1).trim();
    }
  }
  return out;
}

// Envoy's admin /config_dump (JSON): every setting of the bootstrap, the listeners and
// the clusters as `<listener|cluster name> <field.path> = value`. What differs between
// any two pods is left out: update times and versions, the node's identity, secrets.
const ENVOY_SECTIONS = {
  BootstrapConfigDump: (c) => [['bootstrap', c.bootstrap]],
  ListenersConfigDump: (c) => [
    ...(c.static_listeners ?? []).map((l) => [`listener ${l.listener?.name}`, l.listener]),
    ...(c.dynamic_listeners ?? []).map((l) => [`listener ${l.name}`, l.active_state?.listener]),
  ],
  ClustersConfigDump: (c) => [
    ...(c.static_clusters ?? []).map((x) => [`cluster ${x.cluster?.name}`, x.cluster]),
    ...(c.dynamic_active_clusters ?? []).map((x) => [`cluster ${x.cluster?.name}`, x.cluster]),
  ],
};
const ENVOY_VOLATILE = new Set(['last_updated', 'version_info', 'node']);

function envoyDirectives(text) {
  const out = new Map();
  const dump = JSON.parse(text);
  for (const config of dump.configs ?? []) {
    const kind = String(config['@type'] ?? '')
      .split('.')
      .at(-1);
    for (const [prefix, value] of ENVOY_SECTIONS[kind]?.(config) ?? []) flatten(value, prefix, out);
  }
  return out;
}

// Arrays of named things (filters, listeners) are keyed by name, so an insertion does
// not renumber everything after it.
function flatten(value, path, out, sep = ' ') {
  if (value === null || typeof value !== 'object') {
    out.set(path, String(value));
    return;
  }
  for (const [k, v] of Array.isArray(value) ? value.map((x, i) => [x?.name ?? i, x]) : Object.entries(value)) {
    if (ENVOY_VOLATILE.has(k)) continue;
    flatten(v, `${path}${sep}${k}`, out, '.');
  }
}

export function readEffective(cellRepDir, dirName = 'proxy') {
  for (const f of FILES) {
    const p = join(cellRepDir, dirName, f);
    if (!existsSync(p)) continue;
    let out;
    try {
      out = directives(readTextFile(p), FORMAT[f] ?? 'nginx');
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new InputError(`${p}: unreadable as a captured ${FORMAT[f] ?? 'nginx'} configuration (${err.name})`);
    }
    // Pod sysctls read beside the config (kube targets), as `sysctl <name>`.
    const sysctls = join(cellRepDir, dirName, 'sysctls.txt');
    if (existsSync(sysctls)) for (const [k, v] of directives(readTextFile(sysctls), 'args')) out.set(`sysctl ${k}`, v);
    // And its containers' CPU and memory requests and limits (kube targets).
    const pod = join(cellRepDir, dirName, 'pod.txt');
    if (existsSync(pod)) for (const [k, v] of directives(readTextFile(pod), 'args')) out.set(`resources ${k}`, v);
    return out;
  }
  return null;
}

/** [{from: Map, to: Map}] -> [{directive, before, after}] */
export function diff(from, to) {
  const keys = [...new Set([...from.keys(), ...to.keys()])].sort();
  return keys
    .filter((k) => from.get(k) !== to.get(k))
    .map((k) => ({ directive: k, before: from.get(k) ?? '(not set)', after: to.get(k) ?? '(not set)' }));
}

/**
 * cells: collectRun() output. For every non-default tuning, the directive changes
 * against the default tuning of the same controller and scenario.
 */
export function tuningDiffs(runDir, cells) {
  const out = [];
  const repDir = (key) => join(runDir, key, 'rep-1');
  for (const c of cells) {
    const [controller, tuning, scenario] = c.key.split('/');
    if (tuning === 'default') continue;
    const base = cells.find((x) => x.key === `${controller}/default/${scenario}`);
    if (!base) continue;
    const from = readEffective(repDir(base.key));
    const to = readEffective(repDir(c.key));
    if (!from || !to) continue;
    out.push({ controller, tuning, scenario, changes: diff(from, to) });
  }
  return out;
}

// What a duet's head changes in the data plane: its captured config (proxy-b) against the
// base's (proxy) in the first cell that has both. The IngressClass each side watches and
// the Service it publishes are the duet's own plumbing, not the change.
// With Gateway API routing, also each side's GatewayClass selector and the Service its
// Gateway status reports.
const DUET_PLUMBING = /ingress[._-]?class|publishedservice|kubernetesgateway\.(labelselector|statusaddress)/i;

export function duetDiff(rawDir, cells) {
  for (const c of cells) {
    const dir = join(rawDir, c.key, 'rep-1');
    const from = readEffective(dir, 'proxy');
    const to = readEffective(dir, 'proxy-b');
    if (from && to) return diff(from, to).filter((x) => !DUET_PLUMBING.test(x.directive));
  }
  return null;
}

export function duetDiffText(changes, { markdown = false } = {}) {
  if (!changes) return '';
  const c = markdown ? code : (x) => x;
  const what = changes.length
    ? changes.map((x) => `${c(x.directive)} ${c(x.before)} → ${c(x.after)}`).join('; ')
    : markdown
      ? '**nothing** (the two data planes run the same configuration)'
      : 'nothing (the two data planes run the same configuration)';
  return `${markdown ? '**What the head changes in the data plane**' : 'What the head changes in the data plane'} (its pod vs the base's, captured before load): ${what}`;
}

export function renderTuningDiffs(diffs) {
  if (!diffs.length) return '';
  const lines = ['What each tuning changed in the data plane (its generated config vs the default tuning):'];
  for (const d of diffs) {
    if (!d.changes.length) {
      lines.push(`  ${d.controller}/${d.tuning} (${d.scenario}): WARNING — changes nothing`);
      continue;
    }
    lines.push(
      `  ${d.controller}/${d.tuning} (${d.scenario}): ${d.changes.map((x) => `${x.directive} ${x.before} → ${x.after}`).join('; ')}`,
    );
  }
  return lines.join('\n');
}

/** The same for markdown (a job summary, a note): file text shown literally. */
export function tuningDiffsMarkdown(diffs) {
  if (!diffs.length) return '';
  const lines = ['#### What each tuning changed in the data plane', ''];
  for (const d of diffs) {
    const what = d.changes.length
      ? d.changes.map((x) => `${code(x.directive)} ${code(x.before)} → ${code(x.after)}`).join('; ')
      : '**warning: changes nothing**';
    lines.push(`- ${code(`${d.controller}/${d.tuning}`)} (${code(d.scenario)}): ${what}`);
  }
  return `${lines.join('\n')}\n`;
}
