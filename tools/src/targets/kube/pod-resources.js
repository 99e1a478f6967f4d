// A pod's share of its node as the scheduler and the kubelet reckon it, from its spec as a
// chart renders it: each container's requests and limits after the API's defaulting (a limit
// without a request is also the request) and the namespace's LimitRange defaults (the
// LimitRanger admission plugin), then the pod's effective figure — the containers summed
// with the sidecars (restartable init containers) beside the largest init container with
// the sidecars started before it — and its QoS class. duet-fairness.js compares two sides'
// pods by these, whatever owns them.

// Kubernetes quantities ("300m", "0.3", "128Mi", "1G") as numbers, so "0.3" equals "300m";
// one that is not a quantity stays the string it is (and compares as that).
const SUFFIX = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
export function quantity(q) {
  if (q === undefined || q === null) return null;
  const m = /^([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(String(q).trim());
  return m ? Number(m[1]) * (m[2] ? SUFFIX[m[2]] : 1) : String(q);
}

export const RESOURCES = ['cpu', 'memory'];
export const KINDS = ['requests', 'limits'];

/**
 * A namespace's LimitRange defaults for containers, from LimitRange documents:
 * { default: {res: q}, defaultRequest: {res: q} }, the API's own defaulting applied (a default
 * limit from max; a default request from the default limit, else from min). Several
 * LimitRanges: the admission plugin applies each in turn, by name, a set value staying set.
 */
export function limitRangeDefaults(limitRanges) {
  const out = { default: {}, defaultRequest: {} };
  const sorted = [...limitRanges].sort((a, b) => String(a.metadata?.name).localeCompare(String(b.metadata?.name)));
  for (const lr of sorted)
    for (const item of Array.isArray(lr.spec?.limits) ? lr.spec.limits : []) {
      if (item?.type !== 'Container') continue;
      const limit = { ...item.max, ...item.default };
      const request = { ...item.min, ...limit, ...item.defaultRequest };
      for (const [k, v] of Object.entries(limit)) out.default[k] ??= v;
      for (const [k, v] of Object.entries(request)) out.defaultRequest[k] ??= v;
    }
  return out;
}

/**
 * One container's request or limit of `res` as admitted: its own, a limit standing in for a
 * missing request (API defaulting, before admission), then the namespace's defaults.
 */
export function effective(c, kind, res, defaults = null) {
  const r = c?.resources ?? {};
  const own = r[kind]?.[res] ?? (kind === 'requests' ? r.limits?.[res] : undefined);
  if (own !== undefined) return own;
  return (kind === 'requests' ? defaults?.defaultRequest : defaults?.default)?.[res];
}

const isSidecar = (c) => c?.restartPolicy === 'Always';

/**
 * The pod's effective `kind` of `res` as a number (cores, bytes), the kubelet's rule: the
 * containers and every sidecar summed, against each init container with the sidecars started
 * before it — the largest. Limits: null when a container has none (the pod has no such
 * cgroup limit); requests: null when none sets one. A quantity that is not one: 'cannot be
 * read (<it>)'.
 */
export function podFigure(pod, kind, res, defaults = null) {
  const value = (c) => quantity(effective(c, kind, res, defaults));
  const containers = Array.isArray(pod.containers) ? pod.containers : [];
  const inits = Array.isArray(pod.initContainers) ? pod.initContainers : [];
  const all = [...containers, ...inits];
  const bad = all.map(value).find((v) => typeof v === 'string');
  if (bad !== undefined) return `cannot be read (${bad.slice(0, 40)})`;
  if (kind === 'limits' && all.some((c) => value(c) === null)) return null;
  if (all.every((c) => value(c) === null)) return null;
  const v = (c) => value(c) ?? 0;
  let sidecars = 0;
  let initPeak = 0;
  for (const c of inits) {
    if (isSidecar(c)) sidecars += v(c);
    else initPeak = Math.max(initPeak, v(c) + sidecars);
  }
  const running = containers.reduce((a, c) => a + v(c), 0) + sidecars;
  return Math.max(running, initPeak);
}

/** The pod's QoS class as the kubelet derives it (it sets the cgroup tier and eviction order). */
export function qosClass(pod, defaults = null) {
  const cs = [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
  const set = (c, kind, res) => effective(c, kind, res, defaults) !== undefined;
  if (cs.every((c) => !KINDS.some((k) => RESOURCES.some((r) => set(c, k, r))))) return 'BestEffort';
  const guaranteed = cs.every((c) =>
    RESOURCES.every(
      (r) =>
        set(c, 'limits', r) &&
        quantity(effective(c, 'requests', r, defaults)) === quantity(effective(c, 'limits', r, defaults)),
    ),
  );
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** A pod figure in the units people write: "400m", "2", "128Mi"; null: "(not set)". */
export function figureText(v, res) {
  if (v === null || v === undefined) return '(not set)';
  if (typeof v === 'string') return v;
  const round = (x) => Number(x.toPrecision(6));
  if (res === 'cpu') return v < 1 ? `${round(v * 1000)}m` : String(round(v));
  return v % 2 ** 20 === 0 ? `${v / 2 ** 20}Mi` : String(round(v));
}
