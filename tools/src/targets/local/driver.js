// The local target: real backend nginx pods, a real proxy (one of the variants),
// an endpoint controller, the load and the fault schedule on one clock. Everything it
// starts is stopped in `finally`, on success, failure and Ctrl-C alike.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controllerMs, nodeLatencyMs } from '../../config/normalise.js';
import { InfraError } from '../../errors.js';
import { sideUrls } from '../../engines/load.js';
import { runLoad } from '../../engines/index.js';
import { EndpointController } from './endpoint-controller.js';
import { EventLog } from '../../run/event-log.js';
import { measureWithFaults } from '../../run/measure.js';
import { PodSet } from './pods.js';
import { freePort, podSubnet } from './ports.js';
import { ProcessGroup } from './proc.js';
import { ResourceSampler } from './resources.js';
import { selfSignedCert } from './tls.js';
import { VARIANTS } from './variants/index.js';
import { Network, netnsAvailable, removeStale } from './netns.js';

export const name = 'local';

/**
 * Runs one cell; returns {load (the engine's outcome), events file, resources, counts}. Throws InfraError on harness
 * faults. drive: what puts the load on the data plane — the run's engine (cell.engine), unless
 * a test drives the same nginx with another tool (fortio: ingest-tools.test.js); resolves
 * like the engine's outcome.
 */
export async function runCell({ cell, cellDir, signal, onStatus = () => {}, drive = driveLoad }) {
  const { controller, tuning, scenario } = cell;
  if (cell.concurrent && cell.isolation === 'netns')
    throw new InfraError('concurrent A/B runs on loopback isolation only');
  const group = new ProcessGroup();
  const events = new EventLog(join(cellDir, 'events.jsonl'));
  // Unix socket paths are limited to 107 bytes: sockets live in a short temp dir — the
  // system's (TMPDIR, whose owner cleans it: a killed run cannot), or /tmp when it is long.
  const sockDir = mkdtempSync(join(tmpdir().length <= 40 ? tmpdir() : '/tmp', 'tg-'));
  let pods;
  let network = null;
  try {
    if (cell.isolation === 'netns') network = createNetwork(cell, events);
    onStatus('starting pods');
    pods = new PodSet({
      group,
      dir: join(cellDir, 'pods'),
      subnet: podSubnet(cell.index),
      events,
      network,
      nodeLatencyMs: nodeLatencyMs(cell),
      delayMs: controllerMs(controller).backendDelay,
      errorRate: controller.backendErrorRate ?? 0,
    });
    await pods.scaleTo(scenario.replicas);
    // Concurrent A/B (cell.concurrent): a second data plane, the head's, in front of the
    // same pods at the same time; k6 alternates requests between the two, so whatever
    // the machine does hits both alike.
    const sides = [{ name: 'a', controller, tuning, dir: 'proxy' }];
    if (cell.concurrent)
      sides.push({ name: 'b', controller: cell.concurrent.controller, tuning: cell.concurrent.tuning, dir: 'proxy-b' });
    const planes = [];
    for (const side of sides) {
      onStatus(`starting ${side.controller.variant}`);
      planes.push(await startDataPlane({ side, group, cellDir, sockDir, scenario, pods, events, network }));
    }

    onStatus('load');
    const [url, urlB] = planes.map((p) => p.url);
    const [sideA, sideB] = urlB ? sideUrls(cell, url, urlB) : [url, null];
    const load = await measureWithFaults({
      scenario,
      pods,
      events,
      startLoad: () => drive({ cell, cellDir, url: sideA, urlB: sideB, signal }),
    });
    for (const p of planes) await p.endpointController.settle();
    const resources = planes.map((p) => p.sampler?.stop() ?? null);
    const failures = planes.flatMap((p) => p.endpointController.failures);
    if (failures.length) throw new InfraError(`endpoint updates failed: ${failures.join('; ')}`);
    const res = (i) =>
      resources[i] && {
        ...resources[i],
        reloads: planes[i].endpointController.reloads,
        endpointUpdates: planes[i].endpointController.updates,
      };
    return {
      load,
      url,
      resources: res(0),
      ...(cell.concurrent ? { concurrent: { sides: ['a', 'b'], urls: [url, urlB], resources: [res(0), res(1)] } } : {}),
      eventsFile: events.file,
    };
  } finally {
    pods?.shutdown();
    await group.stopAll();
    network?.destroy();
    rmSync(sockDir, { recursive: true, force: true });
  }
}

function driveLoad({ cell, cellDir, url, urlB, signal }) {
  return runLoad(cell, { cellDir, url, urlB, signal });
}

async function startDataPlane({ side, group, cellDir, sockDir, scenario, pods, events, network }) {
  const { controller, tuning } = side;
  const variant = VARIANTS[controller.variant];
  const proxyDir = join(cellDir, side.dir);
  mkdirSync(proxyDir, { recursive: true });
  const sideSock = join(sockDir, side.name);
  mkdirSync(sideSock, { recursive: true });
  const ctx = {
    group,
    dir: proxyDir,
    sockDir: sideSock,
    variant: controller.variant,
    controller,
    tuning,
    endpoints: pods.endpoints(),
    tls: scenario.tls && controller.variant !== 'direct' ? selfSignedCert(proxyDir) : null,
    ...(await proxyPlacement(network, tuning, events)),
  };
  const dataPlane = await variant.start(ctx);
  const endpointController = new EndpointController({
    dataPlane,
    events,
    lagMs: controllerMs(controller).updateLag,
  });
  pods.onChange((eps) => endpointController.onChange(eps));
  const sampler = dataPlane.child ? new ResourceSampler(dataPlane.child.pid) : null;
  const url = dataPlane.url ?? `${ctx.tls ? 'https' : 'http'}://${ctx.address}:${ctx.port}`;
  return { dataPlane, endpointController, sampler, url };
}

// The proxy on loopback (free ports), or in its own namespace where the tuning's
// backlog becomes that namespace's net.core.somaxconn.
async function proxyPlacement(network, tuning, events) {
  if (!network) {
    const port = await freePort();
    return { address: '127.0.0.1', port, controlAddress: '127.0.0.1', controlPort: await freePort() };
  }
  const somaxconn = tuning.backlog ?? 4096;
  const { ns, address } = network.addHost(2, { somaxconn });
  events.emit('netns-ready', { ns, address, somaxconn: network.somaxconnOf(ns) });
  return { ns, address, port: 8080, controlAddress: address, controlPort: 8081 };
}

function createNetwork(cell, events) {
  const why = netnsAvailable();
  if (why) throw new InfraError(why);
  removeStale();
  const id = Math.random().toString(36).slice(2, 7);
  const network = new Network({ id, subnet: `10.${200 + (cell.index % 50)}.${Math.floor(Math.random() * 250) + 1}` });
  events.emit('netns-bridge', { bridge: network.bridge });
  return network;
}
