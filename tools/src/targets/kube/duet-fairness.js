// Is a duet fair? Base and head share one node, so a duet measures what a change does to
// a controller only while the node shares itself between the two sides alike. A head
// that asks for a CPU request the base lacks gets the larger cgroup weight and wins the
// contention: the verdict would be the two sides' share of the node, not the change
// (issue 60: a PR adding a 300m request read p99 −19.5%, its mirror ×1.20 red, on Traefik).
// Read before any load from each side's rendered manifests (helm template, the values
// check every duet runs first): one function per difference class, each -> the
// differences it finds, [{ class, what, base, head }]. A class that does change the share
// makes the cell run one side at a time; the others are listed as shared fairly.
//
// Decided from the pod, as the scheduler and the kubelet decide (pod-resources.js): each
// side's pods — whatever the kind or the name of the workload that owns them — with their
// effective requests and limits (every container; init containers as the kubelet counts
// them; sidecars added; the namespace's LimitRange defaults), QoS class, priority,
// placement and runtime. A pod one side has and the other lacks is a difference; so is
// anything either side's manifests hold that cannot be read (a document that does not
// parse, a quantity that is not one, replicas that are not a number): unfair. Before, the
// rule compared the proxy containers of workloads both sides rendered under one kind and
// name, and a head that took more of the node another way stayed a duet in silence.
//
// Not here, on purpose: what the proxy does per request (workers, keep-alive, log level).
// That changes the head's own cost, not its share of the node, and the cross-talk guard
// catches it in flight from each side's CPU per request (compare/).
import { parseAllDocuments } from 'yaml';
import { figureText, KINDS, limitRangeDefaults, podFigure, qosClass, quantity, RESOURCES } from './pod-resources.js';

export { qosClass, quantity };

const PLACEMENT = ['nodeName', 'nodeSelector', 'affinity', 'tolerations', 'topologySpreadConstraints'];

/**
 * One side's pods in helm template output: a Map keyed `<Kind>/<name>` (the release's own
 * name written `<release>`: the two sides' releases are named apart) of { kind, replicas,
 * pod, defaults }, for every document that holds a pod — a Pod, any workload's pod template
 * (spec.template.spec), a CronJob's — and `unreadable`: what could not be read, as text that
 * compares across the sides.
 */
export function podTemplates(rendered, { release, namespace } = {}) {
  const out = new Map();
  out.unreadable = [];
  const text = String(rendered ?? '');
  let docs;
  try {
    docs = parseAllDocuments(text);
  } catch {
    out.unreadable.push('the rendered manifests do not parse');
    return out;
  }
  const objects = [];
  docs.forEach((doc, i) => {
    if (doc.errors?.length) {
      const raw = text.slice(doc.range?.[0] ?? 0, doc.range?.[2] ?? 0);
      const source = /# Source: (\S+)/.exec(raw)?.[1];
      out.unreadable.push(
        `document ${i + 1}${source ? ` (${source})` : ''} does not parse: ${rawText(raw, release, namespace)}`,
      );
      return;
    }
    const o = doc.toJS();
    if (o && typeof o === 'object' && !Array.isArray(o)) objects.push(o);
  });
  // The LimitRange defaults of each namespace the manifests name (a document without one
  // is the release's).
  const nsOf = (o) => o.metadata?.namespace ?? namespace;
  const ranges = objects.filter((o) => o.kind === 'LimitRange');
  const defaultsOf = (ns) => limitRangeDefaults(ranges.filter((r) => nsOf(r) === ns));
  for (const o of objects) {
    const found = podOf(o);
    if (!found) continue;
    const name = unreleased(o.metadata?.name, release, namespace);
    const pod = { ...found.pod };
    for (const f of PLACEMENT) if (pod[f] !== undefined) pod[f] = unreleased(pod[f], release, namespace);
    out.set(`${o.kind}/${name}`, { kind: o.kind, name, replicas: found.replicas, pod, defaults: defaultsOf(nsOf(o)) });
  }
  return out;
}

// A document that does not parse, as text that compares across the sides: each side's own
// release and namespace written as placeholders, the first line or so.
function rawText(raw, release, namespace) {
  let t = raw
    .replace(/^---\s*/, '')
    .replace(/^#.*\n/gm, '')
    .trim();
  if (namespace) t = t.replaceAll(namespace, '<namespace>');
  if (release) t = t.replaceAll(`${release}-`, '<release>-');
  return t.replace(/\s+/g, ' ').slice(0, 120);
}

// The pod a document holds, and how many of it run on the node the duet shares (a
// DaemonSet: one per node): null where it holds none.
function podOf(o) {
  const isPod = (p) => p && typeof p === 'object' && Array.isArray(p.containers);
  if (o.kind === 'Pod') return isPod(o.spec) ? { pod: o.spec, replicas: 1 } : null;
  if (o.kind === 'CronJob') {
    const job = o.spec?.jobTemplate?.spec;
    return isPod(job?.template?.spec) ? { pod: job.template.spec, replicas: count(job.parallelism) } : null;
  }
  const pod = o.spec?.template?.spec;
  if (!isPod(pod)) return null;
  if (o.kind === 'DaemonSet') return { pod, replicas: 'one per node' };
  return { pod, replicas: count(o.kind === 'Job' ? o.spec.parallelism : o.spec.replicas) };
}

// replicas (parallelism) as the API defaults them; one that is not a count cannot be read.
function count(n) {
  if (n === undefined || n === null) return 1;
  return Number.isInteger(n) && n >= 0 ? n : `cannot be read (${String(n).slice(0, 40)})`;
}

// A side's release name and namespace as placeholders, so the two sides' plumbing
// (an anti-affinity on its own instance label, say) compares equal: in workload names and
// placement only, where the chart writes them.
function unreleased(x, release, namespace) {
  if (typeof x === 'string') {
    if (release && x === release) return '<release>';
    if (namespace && x === namespace) return '<namespace>';
    return release ? x.replaceAll(`${release}-`, '<release>-') : x;
  }
  if (Array.isArray(x)) return x.map((v) => unreleased(v, release, namespace));
  if (x && typeof x === 'object')
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, unreleased(v, release, namespace)]));
  return x;
}

const shown = (v) =>
  v === undefined || v === null ? '(not set)' : typeof v === 'object' ? JSON.stringify(v) : String(v);
const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const diff = (cls, what, a, b) => (same(a, b) ? [] : [{ class: cls, what, base: shown(a), head: shown(b) }]);

/**
 * The pods' effective CPU and memory requests and limits (pod-resources.js), each side's
 * pod with its namespace's defaults: [{ class: 'resources', what: 'requests.cpu', … }].
 */
export function resources(a, b, { baseDefaults = null, headDefaults = null } = {}) {
  const out = [];
  for (const kind of KINDS)
    for (const res of RESOURCES) {
      const [x, y] = [podFigure(a, kind, res, baseDefaults), podFigure(b, kind, res, headDefaults)];
      if (x !== y)
        out.push({ class: 'resources', what: `${kind}.${res}`, base: figureText(x, res), head: figureText(y, res) });
    }
  return out;
}

export function qos(a, b, { baseDefaults = null, headDefaults = null } = {}) {
  return diff('qos', 'QoS class', qosClass(a, baseDefaults), qosClass(b, headDefaults));
}

/** Priority class: who is preempted and evicted first when the node is short. */
export function priority(a, b) {
  return [
    ...diff('priority', 'priorityClassName', a.priorityClassName, b.priorityClassName),
    ...diff('priority', 'priority', a.priority, b.priority),
  ];
}

/** Where the pod may run: the two sides on different nodes share no node at all. */
export function placement(a, b) {
  return PLACEMENT.flatMap((f) => diff('placement', f, a[f], b[f]));
}

/** The host's own network stack (and PID, IPC): no longer the pod's own, shared unequally. */
export function hostNamespaces(a, b) {
  return ['hostNetwork', 'hostPID', 'hostIPC'].flatMap((f) => diff('host', f, a[f] ?? false, b[f] ?? false));
}

/** The runtime (a sandboxed one costs CPU outside the pod's cgroup). */
export function runtime(a, b) {
  return diff('runtime', 'runtimeClassName', a.runtimeClassName, b.runtimeClassName);
}

/**
 * Pod sysctls. Found, but shared fairly: the kubelet lets a pod set only namespaced
 * sysctls (net.*, kernel.shm*, kernel.msg*, kernel.sem, fs.mqueue.*), which act on the
 * pod's own network and IPC namespaces, not on the node the two sides share — the
 * catalog's tuned duets (net.core.somaxconn) stay duets.
 */
export function sysctls(a, b) {
  const list = (p) =>
    Object.fromEntries((p.securityContext?.sysctls ?? []).map((s) => [s.name, String(s.value)]).sort());
  const [x, y] = [list(a), list(b)];
  return [...new Set([...Object.keys(x), ...Object.keys(y)])].flatMap((k) => diff('sysctls', k, x[k], y[k]));
}

/** More pods on one side: more cgroups, more weight, more of the node. */
export function replicas(a, b) {
  return diff('replicas', 'replicas', a, b);
}

// The classes that change how the node shares itself between the sides.
export const UNFAIR = ['resources', 'qos', 'priority', 'placement', 'host', 'runtime', 'replicas', 'pods', 'unread'];

const PODS = [priority, placement, hostNamespaces, runtime, sysctls];

/**
 * Two sides' pods (podTemplates) -> { unfair: [differences], fair: [differences], why: one
 * line or null }. Pods are paired by their owner's kind and name, then by name, then in
 * order; a pod left on one side is a difference (class pods), and so is anything one side
 * cannot read that the other can (class unread).
 */
export function duetFairness(base, head) {
  const found = [];
  const [ub, uh] = [base.unreadable ?? [], head.unreadable ?? []];
  for (const u of ub.filter((x) => !uh.includes(x)))
    found.push({ class: 'unread', what: u, base: 'cannot be read', head: '(as written)', workload: 'manifests' });
  for (const u of uh.filter((x) => !ub.includes(x)))
    found.push({ class: 'unread', what: u, base: '(as written)', head: 'cannot be read', workload: 'manifests' });
  const { pairs, baseOnly, headOnly } = pairPods(base, head);
  for (const [b, h] of pairs) {
    const [kb, kh] = [`${b.kind}/${b.name}`, `${h.kind}/${h.name}`];
    const at = (d) => ({ ...d, workload: kb === kh ? kb : `${kb} → ${kh}` });
    const defaults = { baseDefaults: b.defaults, headDefaults: h.defaults };
    found.push(...replicas(b.replicas, h.replicas).map(at));
    found.push(...resources(b.pod, h.pod, defaults).map(at), ...qos(b.pod, h.pod, defaults).map(at));
    for (const f of PODS) found.push(...f(b.pod, h.pod).map(at));
  }
  for (const [side, list] of [
    ['base', baseOnly],
    ['head', headOnly],
  ])
    for (const p of list)
      found.push({
        class: 'pods',
        what: `${p.kind}/${p.name}`,
        workload: `${p.kind}/${p.name}`,
        base: side === 'base' ? podText(p) : '(none)',
        head: side === 'head' ? podText(p) : '(none)',
      });
  const unfair = found.filter((d) => UNFAIR.includes(d.class));
  return { unfair, fair: found.filter((d) => !UNFAIR.includes(d.class)), why: unfair.length ? whyLine(unfair) : null };
}

// Pods of one owner on both sides: by kind and name, then by name (another kind), then in
// the order the charts render them (another name).
function pairPods(base, head) {
  const left = [...base.values()];
  const right = [...head.values()];
  const pairs = [];
  const take = (match) => {
    for (const b of [...left]) {
      const i = right.findIndex((h) => match(b, h));
      if (i < 0) continue;
      pairs.push([b, right[i]]);
      right.splice(i, 1);
      left.splice(left.indexOf(b), 1);
    }
  };
  take((b, h) => b.kind === h.kind && b.name === h.name);
  take((b, h) => b.name === h.name);
  take(() => true);
  return { pairs, baseOnly: left, headOnly: right };
}

// A pod's share in one phrase: "1 pod, requests cpu 500m".
function podText(p) {
  const figures = KINDS.flatMap((k) =>
    RESOURCES.map((r) => [k, r, podFigure(p.pod, k, r, p.defaults)]).filter(([, , v]) => v !== null && v !== 0),
  ).map(([k, r, v]) => `${k} ${r} ${figureText(v, r)}`);
  const n = typeof p.replicas === 'number' ? `${p.replicas} pod${p.replicas === 1 ? '' : 's'}` : String(p.replicas);
  return `${n}${figures.length ? `, ${figures.join(', ')}` : ''}`;
}

/** The differences for the log, each named: "traefik: requests.cpu 100m → 400m". */
export function differencesText(ds) {
  return ds.map((d) => `${d.workload ? `${d.workload}: ` : ''}${d.what} ${d.base} → ${d.head}`).join('; ');
}

const RES = { cpu: 'CPU', memory: 'memory' };
const KIND = { requests: 'request', limits: 'limit' };

/** "the head changes its CPU request: a duet would measure the two sides' share of the node" */
export function whyLine(unfair) {
  const phrases = [];
  const res = unfair.filter((d) => d.class === 'resources');
  for (const r of RESOURCES) {
    const kinds = KINDS.filter((k) => res.some((d) => d.what.endsWith(`${k}.${r}`)));
    if (kinds.length) phrases.push(`its ${RES[r]} ${kinds.map((k) => KIND[k]).join(' and ')}`);
  }
  const qos = unfair.find((d) => d.class === 'qos');
  if (qos) phrases.push(`its QoS class (${qos.base} → ${qos.head})`);
  for (const [cls, text] of [
    ['priority', 'its priority class'],
    ['placement', 'where its pods may run'],
    ['host', "its use of the host's namespaces"],
    ['runtime', 'its container runtime'],
    ['pods', 'which pods it runs'],
  ])
    if (unfair.some((d) => d.class === cls)) phrases.push(`${text} (${whats(unfair, cls)})`);
  const rep = unfair.find((d) => d.class === 'replicas');
  if (rep) phrases.push(`its pods (${rep.base} → ${rep.head})`);
  if (unfair.some((d) => d.class === 'unread')) phrases.push('manifests that cannot be read');
  const list = phrases.length > 1 ? `${phrases.slice(0, -1).join(', ')} and ${phrases.at(-1)}` : phrases[0];
  return `the head changes ${list}: a duet would measure the two sides' share of the node`;
}

const whats = (ds, cls) => [...new Set(ds.filter((d) => d.class === cls).map((d) => d.what))].join(', ');
