// The route faults' "routes" on a cluster. Each edit is made on every side together (one
// apply per side, issued at once) and then followed through that side's own data plane
// until it shows:
//   add     a new route (an Ingress of the side's class, or an HTTPRoute on its Gateway)
//           for r<i>.f<n>.<tag>.routes.bench.local: its first 200;
//   change  the side's loaded route switched between the backend's two Services over the
//           same pods (<release>, <release>-alt: its answers carry X-Tailgate-Backend: alt):
//           the first answer from the new one;
//   remove  a route made for it (x<i>.f<n>.<tag>.routes.bench.local, answering first)
//           deleted: its first 404.
// n is the fault's place in the scenario's list and tag this measurement's: a route an
// edit makes never existed before, in this measurement or an earlier one on the cluster —
// applying an object that is already there changes nothing, and the data plane already
// serving its host would be "followed" at once.
// Events: route-applied (the API server accepted the edit), route-ready (the data plane
// followed: propagationMs, probes, and errors — answers that were neither the old nor the
// new behaviour), or route-not-ready (timed out, or the load ended first). After the
// measurement every route made is deleted and a changed route switched back.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError } from '../../errors.js';
import { run } from '../../exec/run.js';
import { NAMESPACE } from './context.js';
import { httpAnswer } from './builtins.js';
import { carryRoutes } from './carried-routes.js';
import { ROUTE_LABEL, routeManifest } from './route-manifests.js';
import { BACKEND_RELEASE } from './steps/backend.js';

const BACKEND = BACKEND_RELEASE;
const ALT_SERVICE = `${BACKEND}-alt`;
const ALT_HEADER = 'x-tailgate-backend';
const LOADED_HOST = 'bench.local';
// Probing every 20 ms resolves propagation to the tens of milliseconds the fastest
// implementations show, at ≤ 50 requests/s per pending edit.
const PROBE_EVERY_MS = 20;
const RESTORE_TIMEOUT_MS = 30_000;

const isAlt = (a) => a.headers?.[ALT_HEADER] === 'alt';

// Milliseconds since 1970 in base 36 (8 characters until the year 2059): measurements on
// one cluster follow one another, so no two share one.
const measurementTag = () => Date.now().toString(36);
const EDIT_OBJECTS = Object.freeze({ add: ['route-add', 'r'], remove: ['route-remove', 'x'] });

/**
 * The object name and host of edit `index` of the scenario's fault number `fault` (an add or
 * a remove) on side `side` in the measurement `tag`: DNS-1123 names, unique per fault, edit
 * and measurement; a duet's head gets its own object for the same host on its own class.
 */
export function routeObject({ edit, fault, index, tag, side }) {
  if (!Number.isInteger(fault) || fault < 0) throw new Error(`route ${edit}: the fault's index is ${fault}`);
  const [prefix, letter] = EDIT_OBJECTS[edit];
  return {
    name: `${prefix}-f${fault}-${index}-${tag}${side === 'head' ? '-b' : ''}`,
    host: `${letter}${index}.f${fault}.${tag}.routes.bench.local`,
  };
}

/**
 * sides: [{side: 'base'|'head', url, ingressClass, loaded} | {side, url, gateway: {name, namespace}, loaded}]
 * — how each side routes, where its data plane answers, and the name of its loaded route.
 */
export class KubeRoutes {
  /** tag: names this measurement's routes (measurementTag; a test gives its own). */
  constructor({ kubectlFlags, sides, events, dir, tag = measurementTag() }) {
    this.flags = kubectlFlags;
    this.sides = sides;
    this.events = events;
    this.dir = dir;
    this.tag = tag;
    this.kinds = new Set();
    this.onAlt = false;
    this.changing = Promise.resolve();
  }

  /** fault: the fault's place in the scenario's list (faults/schedule.js). */
  async add(index, { timeoutMs, signal, fault }) {
    await Promise.all(
      this.sides.map(async (s) => {
        const { name, host } = routeObject({ edit: 'add', fault, index, tag: this.tag, side: s.side });
        await this.apply(s, name, host);
        await this.follow(s, { edit: 'add', fault, route: index, host, timeoutMs, signal }, (a) =>
          a.status === 200 ? 'done' : a.status === 404 ? 'before' : 'error',
        );
      }),
    );
  }

  /** Switches every side's loaded route to the other Service over the same pods. */
  change(index, opts) {
    // Every route-change fault switches the one loaded route: a change starts once the one
    // before it, of any fault, has ended — two at once would each be "followed" by the
    // other's state.
    const turn = this.changing.then(() => this.changeNow(index, opts));
    this.changing = turn.catch(() => {});
    return turn;
  }

  async changeNow(index, { timeoutMs, signal, fault }) {
    if (signal.aborted) return;
    const from = this.onAlt;
    // Not an edit under test yet: a side still showing the state before the last change (it
    // never followed it) would follow this switch back at once, so each side must show the
    // state this change starts from.
    const shows = await Promise.all(
      this.sides.map((s) =>
        this.waitFor(s, LOADED_HOST, (a) => a.status === 200 && isAlt(a) === from, timeoutMs, signal),
      ),
    );
    if (signal.aborted) return;
    const toAlt = !from;
    this.onAlt = toAlt;
    await Promise.all(
      this.sides.map(async (s, k) => {
        // Every side's route is switched, so that the sides stay one edit apart at most.
        await this.patchLoaded(s, toAlt);
        if (!shows[k])
          return this.events.emit('route-not-ready', {
            edit: 'change',
            fault,
            route: index,
            side: s.side,
            // Its data plane did not show where the change starts: censored at the timeout.
            reason: `did not show the ${from ? 'alt' : 'first'} Service before the change (${timeoutMs} ms)`,
            timedOut: true,
            afterMs: timeoutMs,
            probes: 0,
            errors: 0,
          });
        await this.follow(s, { edit: 'change', fault, route: index, host: LOADED_HOST, timeoutMs, signal }, (a) =>
          a.status !== 200 ? 'error' : isAlt(a) === toAlt ? 'done' : 'before',
        );
      }),
    );
  }

  /** A route made and answering, then deleted, and followed until it answers 404. */
  async remove(index, { timeoutMs, signal, fault }) {
    await Promise.all(
      this.sides.map(async (s) => {
        const { name, host } = routeObject({ edit: 'remove', fault, index, tag: this.tag, side: s.side });
        const kind = await this.apply(s, name, host);
        // Not an edit under test yet: the route must answer before its removal is timed.
        const up = await this.waitFor(s, host, (a) => a.status === 200, timeoutMs, signal);
        if (!up) {
          this.events.emit('route-not-ready', {
            edit: 'remove',
            fault,
            route: index,
            side: s.side,
            // The data plane never served it: a failed edit, censored at its timeout.
            reason: `never answered before its removal (${timeoutMs} ms)`,
            timedOut: true,
            afterMs: timeoutMs,
            probes: 0,
            errors: 0,
          });
          return;
        }
        await this.kubectl(['-n', NAMESPACE, 'delete', kind, name, '--wait=false'], `kubectl delete ${kind} ${name}`);
        await this.follow(s, { edit: 'remove', fault, route: index, host, timeoutMs, signal }, (a) =>
          a.status === 404 ? 'done' : a.status === 200 ? 'before' : 'error',
        );
      }),
    );
  }

  async apply(s, name, host) {
    const manifest = routeManifest(s, name, host);
    const kind = manifest.kind.toLowerCase();
    this.kinds.add(kind);
    const file = join(this.dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(manifest));
    await this.kubectl(['apply', '-f', file], `kubectl apply ${name}`);
    return kind;
  }

  async patchLoaded(s, toAlt) {
    const service = toAlt ? ALT_SERVICE : BACKEND;
    const [kind, path] = s.gateway
      ? ['httproute', '/spec/rules/0/backendRefs/0/name']
      : ['ingress', '/spec/rules/0/http/paths/0/backend/service/name'];
    const patch = JSON.stringify([{ op: 'replace', path, value: service }]);
    await this.kubectl(
      ['-n', NAMESPACE, 'patch', kind, s.loaded, '--type=json', '-p', patch],
      `kubectl patch ${kind} ${s.loaded} (backend → ${service})`,
    );
  }

  async kubectl(args, what) {
    const r = await run(['kubectl', ...this.flags, ...args], { timeoutMs: 30_000 });
    if (r.code !== 0) throw new InfraError(`${what}: ${r.output.trim().split('\n').at(-1)}`);
  }

  // Probes from the moment the API server accepted the edit until `state` says done:
  // 'before' (the old behaviour, not yet followed) and 'error' (neither) keep probing.
  async follow(s, { edit, fault, route, host, timeoutMs, signal }, state) {
    const accepted = Date.now();
    this.events.emit('route-applied', { edit, fault, route, side: s.side });
    const errors = {};
    const errorCount = () => Object.values(errors).reduce((a, b) => a + b, 0);
    let probes = 0;
    while (!signal.aborted && Date.now() - accepted < timeoutMs) {
      probes++;
      const a = await probe(s.url, host);
      const now = state(a);
      if (now === 'done') {
        this.events.emit('route-ready', {
          edit,
          fault,
          route,
          side: s.side,
          propagationMs: Date.now() - accepted,
          probes,
          errors: errorCount(),
          ...(Object.keys(errors).length ? { errorClasses: JSON.stringify(errors).slice(0, 300) } : {}),
        });
        return;
      }
      if (now === 'error') errors[String(a.status)] = (errors[String(a.status)] ?? 0) + 1;
      await new Promise((res) => setTimeout(res, PROBE_EVERY_MS));
    }
    this.events.emit('route-not-ready', {
      edit,
      fault,
      route,
      side: s.side,
      reason: signal.aborted ? 'the load ended first' : `not followed within ${timeoutMs} ms`,
      timedOut: !signal.aborted,
      afterMs: Date.now() - accepted,
      probes,
      errors: errorCount(),
    });
  }

  async waitFor(s, host, ok, timeoutMs, signal) {
    const until = Date.now() + timeoutMs;
    while (!signal?.aborted && Date.now() < until) {
      if (ok(await probe(s.url, host))) return true;
      await new Promise((res) => setTimeout(res, PROBE_EVERY_MS));
    }
    return false;
  }

  /** `routes: N`: N routes carried before the load (carried-routes.js), deleted with the others. */
  async carry(n, sample) {
    this.kinds.add(this.sides[0].gateway ? 'httproute' : 'ingress');
    await carryRoutes({
      n,
      sides: this.sides,
      kubectlFlags: this.flags,
      dir: this.dir,
      events: this.events,
      sample,
      tag: this.tag,
    });
  }

  /** Deletes every route a fault of this measurement made and switches a changed route back. */
  async cleanup() {
    for (const kind of this.kinds) {
      await this.kubectl(
        ['-n', NAMESPACE, 'delete', kind, '-l', ROUTE_LABEL, '--ignore-not-found', '--wait=false'],
        'could not delete the routes a route fault added',
      );
    }
    if (!this.onAlt) return;
    this.onAlt = false;
    await Promise.all(this.sides.map((s) => this.patchLoaded(s, false)));
    // The next measurement starts on the route as the chart made it.
    const back = await Promise.all(
      this.sides.map((s) => this.waitFor(s, LOADED_HOST, (a) => a.status === 200 && !isAlt(a), RESTORE_TIMEOUT_MS)),
    );
    if (back.includes(false))
      throw new InfraError(
        `the loaded route did not switch back to Service ${BACKEND} within ${RESTORE_TIMEOUT_MS / 1000}s after route-change`,
      );
  }
}

// The backend answers /healthz (and the load's paths), and 404 for anything else: only a
// path it serves tells a routed request from a data plane's 404.
async function probe(url, host) {
  try {
    return await httpAnswer(`${url}/healthz`, host);
  } catch {
    return { status: 'connection' };
  }
}
