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
// Not here, on purpose: what the proxy does per request (workers, keep-alive, log level,
// a sidecar in the pod). That changes the head's own cost, not its share of the node, and
// the cross-talk guard catches it in flight from each side's CPU per request (compare/).
import { parseAllDocuments } from 'yaml';

const WORKLOADS = new Set(['Deployment', 'DaemonSet', 'StatefulSet']);
const PLACEMENT = ['nodeName', 'nodeSelector', 'affinity', 'tolerations', 'topologySpreadConstraints'];

/**
 * The workloads' pod templates in helm template output, keyed `<Kind>/<name>` with the
 * release's own name written `<release>` (the two sides' releases are named apart).
 * Unparseable documents are skipped: the output is bounded and a cut one is not ours.
 */
export function podTemplates(rendered, { release, namespace } = {}) {
  const out = new Map();
  let docs;
  try {
    docs = parseAllDocuments(String(rendered ?? ''));
  } catch {
    return out;
  }
  for (const doc of docs) {
    if (doc.errors?.length) continue;
    const o = doc.toJS();
    if (!o || !WORKLOADS.has(o.kind) || !o.spec?.template?.spec) continue;
    const pod = { ...o.spec.template.spec };
    for (const f of PLACEMENT) if (pod[f] !== undefined) pod[f] = unreleased(pod[f], release, namespace);
    out.set(`${o.kind}/${unreleased(o.metadata?.name, release, namespace)}`, {
      kind: o.kind,
      replicas: o.kind === 'DaemonSet' ? 'one per node' : (o.spec.replicas ?? 1),
      pod,
    });
  }
  return out;
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

// Kubernetes quantities ("300m", "0.3", "128Mi", "1G") as numbers, so "0.3" equals "300m".
const SUFFIX = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
export function quantity(q) {
  if (q === undefined || q === null) return null;
  const m = /^([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(String(q).trim());
  return m ? Number(m[1]) * (m[2] ? SUFFIX[m[2]] : 1) : String(q);
}

const shown = (v) =>
  v === undefined || v === null ? '(not set)' : typeof v === 'object' ? JSON.stringify(v) : String(v);
const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const diff = (cls, what, a, b) => (same(a, b) ? [] : [{ class: cls, what, base: shown(a), head: shown(b) }]);

// A container's own requests as the API server sees them: a limit without a request
// is also its request (the defaulting that decides the QoS class and the cgroup weight).
function effective(c, kind, res) {
  const r = c?.resources ?? {};
  return r[kind]?.[res] ?? (kind === 'requests' ? r.limits?.[res] : undefined);
}

// Containers matched by name, else by place: a renamed container is still the proxy.
function pairContainers(a, b) {
  const [ca, cb] = [a.containers ?? [], b.containers ?? []];
  return ca.map((c, i) => [c, cb.find((x) => x.name === c.name) ?? cb[i]]).filter(([, d]) => d);
}

/** CPU and memory requests and limits, container by container. */
export function resources(a, b) {
  const out = [];
  for (const [ca, cb] of pairContainers(a, b))
    for (const kind of ['requests', 'limits'])
      for (const res of ['cpu', 'memory']) {
        const [x, y] = [effective(ca, kind, res), effective(cb, kind, res)];
        if (quantity(x) !== quantity(y)) out.push(...diff('resources', `${ca.name}.${kind}.${res}`, x, y));
      }
  return out;
}

/** The pod's QoS class as the kubelet derives it (it sets the cgroup tier and eviction order). */
export function qosClass(pod) {
  const cs = [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
  const set = (c, kind, res) => effective(c, kind, res) !== undefined;
  if (cs.every((c) => !['requests', 'limits'].some((k) => ['cpu', 'memory'].some((r) => set(c, k, r)))))
    return 'BestEffort';
  const guaranteed = cs.every((c) =>
    ['cpu', 'memory'].every(
      (r) => set(c, 'limits', r) && quantity(effective(c, 'requests', r)) === quantity(c.resources.limits[r]),
    ),
  );
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

export function qos(a, b) {
  return diff('qos', 'QoS class', qosClass(a), qosClass(b));
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
export const UNFAIR = ['resources', 'qos', 'priority', 'placement', 'host', 'runtime', 'replicas'];

const PODS = [resources, qos, priority, placement, hostNamespaces, runtime, sysctls];

/**
 * Two sides' pod templates (podTemplates) -> { unfair: [differences], fair: [differences],
 * why: one line or null }. Workloads only one side has are the catalog's business (a
 * data plane of its own); those both have are compared.
 */
export function duetFairness(base, head) {
  const found = [];
  for (const [key, b] of base) {
    const h = head.get(key);
    if (!h) continue;
    const name = key.split('/')[1];
    const at = (d) => ({ ...d, workload: name });
    found.push(...replicas(b.replicas, h.replicas).map(at));
    for (const f of PODS) found.push(...f(b.pod, h.pod).map(at));
  }
  const unfair = found.filter((d) => UNFAIR.includes(d.class));
  return { unfair, fair: found.filter((d) => !UNFAIR.includes(d.class)), why: unfair.length ? whyLine(unfair) : null };
}

const RES = { cpu: 'CPU', memory: 'memory' };
const KIND = { requests: 'request', limits: 'limit' };

/** "the head changes its CPU request: a duet would measure the two sides' share of the node" */
export function whyLine(unfair) {
  const phrases = [];
  const res = unfair.filter((d) => d.class === 'resources');
  for (const r of ['cpu', 'memory']) {
    const kinds = ['requests', 'limits'].filter((k) => res.some((d) => d.what.endsWith(`.${k}.${r}`)));
    if (kinds.length) phrases.push(`its ${RES[r]} ${kinds.map((k) => KIND[k]).join(' and ')}`);
  }
  const qos = unfair.find((d) => d.class === 'qos');
  if (qos) phrases.push(`its QoS class (${qos.base} → ${qos.head})`);
  for (const [cls, text] of [
    ['priority', 'its priority class'],
    ['placement', 'where its pods may run'],
    ['host', "its use of the host's namespaces"],
    ['runtime', 'its container runtime'],
  ])
    if (unfair.some((d) => d.class === cls)) phrases.push(`${text} (${whats(unfair, cls)})`);
  const rep = unfair.find((d) => d.class === 'replicas');
  if (rep) phrases.push(`its pods (${rep.base} → ${rep.head})`);
  const list = phrases.length > 1 ? `${phrases.slice(0, -1).join(', ')} and ${phrases.at(-1)}` : phrases[0];
  return `the head changes ${list}: a duet would measure the two sides' share of the node`;
}

const whats = (ds, cls) => [...new Set(ds.filter((d) => d.class === cls).map((d) => d.what))].join(', ');
