import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { diff, directives, readEffective, renderTuningDiffs, tuningDiffs } from '../../src/report/effective-config.js';
import { scratchDir } from '../helpers/scratch.js';

test('effective config: nginx directives by context, addresses and paths normalized', () => {
  const a = directives(
    'worker_processes 1;\nevents { worker_connections 512; }\nhttp {\n  keepalive_requests 1000;\n  upstream backend {\n    server 127.0.0.5:8080;\n  }\n  server {\n    listen 127.0.0.1:4321 backlog=511;\n    error_log /tmp/a/error.log;\n  }\n}\n',
  );
  const b = directives(
    'worker_processes auto;\nevents { worker_connections 65535; }\nhttp {\n  keepalive_requests 10000;\n  upstream backend {\n    server 127.0.0.9:8080;\n    keepalive 320;\n  }\n  server {\n    listen 127.0.0.1:9999 backlog=32768;\n    error_log /tmp/b/error.log;\n  }\n}\n',
  );
  const d = Object.fromEntries(diff(a, b).map((x) => [x.directive, `${x.before} → ${x.after}`]));
  assert.deepEqual(d, {
    'events worker_connections': '512 → 65535',
    keepalive_requests: '1000 → 10000',
    listen: '<addr> backlog=511 → <addr> backlog=32768',
    'upstream keepalive': '(not set) → 320',
    worker_processes: '1 → auto',
  });
});

test('effective config: haproxy sections, and a tuning that changes nothing is a warning', () => {
  const cfg = 'global\n  maxconn 4096\ndefaults\n  timeout connect 5000ms\nbackend be\n  http-reuse safe\n';
  const same = directives(cfg, 'haproxy');
  const tuned = directives(cfg.replace('http-reuse safe', 'http-reuse always'), 'haproxy');
  assert.deepEqual(diff(same, tuned), [{ directive: 'backend http-reuse', before: 'safe', after: 'always' }]);
  const text = renderTuningDiffs([{ controller: 'c', tuning: 'tuned', scenario: 's', changes: diff(same, same) }]);
  assert.match(text, /c\/tuned \(s\): WARNING — changes nothing/);
});

test('effective config: flags of a controller configured by arguments (Traefik)', () => {
  const a = directives('--entryPoints.web.address=:8000/tcp\n--providers.kubernetesingress\n', 'args');
  const b = directives(
    '--entryPoints.web.address=:8000/tcp\n--providers.kubernetesingress\n--serversTransport.maxIdleConnsPerHost=320\n',
    'args',
  );
  assert.deepEqual(diff(a, b), [
    { directive: '--serversTransport.maxIdleConnsPerHost', before: '(not set)', after: '320' },
  ]);
});

test('effective config: the pod sysctl read beside the config shows in the diff (kube targets)', () => {
  const root = scratchDir('tg-eff-');
  const cell = (tuning, somaxconn) => {
    const dir = join(root, 'haproxy-ingress', tuning, 'steady', 'rep-1', 'proxy');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'haproxy.cfg'), `global\n  maxconn ${tuning === 'tuned' ? 65535 : 2000}\n`);
    writeFileSync(join(dir, 'sysctls.txt'), `net.core.somaxconn=${somaxconn}\n`);
  };
  cell('default', 4096);
  cell('tuned', 32768);
  const [d] = tuningDiffs(root, [{ key: 'haproxy-ingress/default/steady' }, { key: 'haproxy-ingress/tuned/steady' }]);
  assert.deepEqual(d.changes, [
    { directive: 'global maxconn', before: '2000', after: '65535' },
    { directive: 'sysctl net.core.somaxconn', before: '4096', after: '32768' },
  ]);
  assert.ok(readEffective(join(root, 'haproxy-ingress', 'tuned', 'steady', 'rep-1')).has('sysctl net.core.somaxconn'));
});

// The shape of Envoy's admin /config_dump (envoy.admin.v3 *ConfigDump messages).
function envoyDump({ pod, version, updated, maxRequests }) {
  return JSON.stringify({
    configs: [
      {
        '@type': 'type.googleapis.com/envoy.admin.v3.BootstrapConfigDump',
        bootstrap: {
          node: { id: pod, cluster: 'tailgate-ingress/envoy-gateway' },
          admin: { address: { socket_address: { address: '127.0.0.1', port_value: 19000 } } },
        },
        last_updated: updated,
      },
      {
        '@type': 'type.googleapis.com/envoy.admin.v3.ListenersConfigDump',
        version_info: version,
        dynamic_listeners: [
          {
            name: 'tailgate-ingress/envoy-gateway/http',
            active_state: {
              version_info: version,
              last_updated: updated,
              listener: {
                name: 'tailgate-ingress/envoy-gateway/http',
                address: { socket_address: { address: '0.0.0.0', port_value: 10080 } },
                filter_chains: [{ filters: [{ name: 'envoy.filters.network.http_connection_manager' }] }],
              },
            },
          },
        ],
      },
      {
        '@type': 'type.googleapis.com/envoy.admin.v3.ClustersConfigDump',
        dynamic_active_clusters: [
          {
            version_info: version,
            last_updated: updated,
            cluster: {
              name: 'httproute/tailgate/backend/rule/0',
              connect_timeout: '10s',
              ...(maxRequests ? { max_requests_per_connection: maxRequests } : {}),
            },
          },
        ],
      },
      { '@type': 'type.googleapis.com/envoy.admin.v3.SecretsConfigDump', dynamic_active_secrets: [{ name: 'x' }] },
    ],
  });
}

test('effective config: Envoy config_dump settings by listener and cluster; times, versions, node identity and secrets left out', () => {
  const a = directives(envoyDump({ pod: 'envoy-a', version: '1', updated: '2026-11-23T10:00:00Z' }), 'envoy');
  const b = directives(
    envoyDump({ pod: 'envoy-b', version: '7', updated: '2026-11-23T11:00:00Z', maxRequests: 1000 }),
    'envoy',
  );
  assert.equal(a.get('listener tailgate-ingress/envoy-gateway/http address.socket_address.port_value'), '10080');
  assert.equal(a.get('bootstrap admin.address.socket_address.port_value'), '19000');
  assert.deepEqual(diff(a, b), [
    {
      directive: 'cluster httproute/tailgate/backend/rule/0 max_requests_per_connection',
      before: '(not set)',
      after: '1000',
    },
  ]);
  assert.ok(![...a.keys()].some((k) => /secret|last_updated|version_info|node/.test(k)), [...a.keys()].join('\n'));
});

test('effective config: a captured file that is a link (out of the results folder) or not what it says is bad input naming it', () => {
  const root = scratchDir('tg-eff-bad-');
  const cell = (name) => {
    const dir = join(root, name, 'proxy');
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  symlinkSync('/etc/passwd', join(cell('linked'), 'nginx.conf'));
  assert.throws(
    () => readEffective(join(root, 'linked')),
    (e) => e.exitCode === 2 && /linked\/proxy\/nginx\.conf: cannot read \(not a regular file\)/.test(e.message),
  );
  writeFileSync(join(cell('garbled'), 'envoy-config.json'), '{"configs": [');
  assert.throws(
    () => readEffective(join(root, 'garbled')),
    (e) =>
      e.exitCode === 2 &&
      /envoy-config\.json: unreadable as a captured envoy configuration \(SyntaxError\)/.test(e.message) &&
      !e.message.includes('"configs"'),
  );
});

test('report of a results folder: what each tuning changed, in the terminal and in markdown, file text shown literally', async () => {
  const { makeRunDir } = await import('../helpers/run-dir.js');
  const { runCli } = await import('../helpers/cli.js');
  const { readFileSync } = await import('node:fs');
  const root = scratchDir('tg-eff-rep-');
  const run = await makeRunDir(
    { 'traefik/default/steady': [{ medianMs: 2, seed: 1 }], 'traefik/tuned/steady': [{ medianMs: 2, seed: 2 }] },
    join(root, 'run'),
  );
  const args = (tuning, extra) => {
    const dir = join(run, 'traefik', tuning, 'steady', 'rep-1', 'proxy');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'traefik-args.txt'), `--entryPoints.web.address=:8000/tcp\n${extra}`);
  };
  args('default', '');
  args('tuned', '--log.format=<b>@team</b>`x`\n');
  const md = join(root, 'run.md');
  const r = await runCli(['report', run, '--markdown', md]);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /traefik\/tuned \(steady\): --log\.format \(not set\) → <b>@team<\/b>`x`/);
  const text = readFileSync(md, 'utf8');
  assert.match(text, /#### What each tuning changed in the data plane/);
  // Shown literally, the mention defused (a zero-width space after '@', as everywhere the bot posts).
  assert.match(text, /- `traefik\/tuned` \(`steady`\): `--log\.format` `\(not set\)` → `<b>@\u200bteam<\/b> x `/);
});

test("effective config: a duet head that only caps the proxy's CPU is named by its pod's resources (haproxy.cfg is the same)", async () => {
  const { duetDiff, duetDiffText } = await import('../../src/report/effective-config.js');
  const raw = scratchDir('tg-eff-res-');
  const rep = join(raw, 'haproxy-ingress', 'default', 'steady', 'rep-1');
  for (const side of ['proxy', 'proxy-b']) {
    mkdirSync(join(rep, side), { recursive: true });
    writeFileSync(join(rep, side, 'haproxy.cfg'), 'global\n  maxconn 8192\n');
  }
  writeFileSync(join(rep, 'proxy-b', 'pod.txt'), 'haproxy-ingress.requests.cpu=50m\nhaproxy-ingress.limits.cpu=50m\n');
  const changes = duetDiff(raw, [{ key: 'haproxy-ingress/default/steady' }]);
  assert.deepEqual(
    changes.map((c) => `${c.directive}: ${c.before} → ${c.after}`),
    [
      'resources haproxy-ingress.limits.cpu: (not set) → 50m',
      'resources haproxy-ingress.requests.cpu: (not set) → 50m',
    ],
  );
  assert.match(duetDiffText(changes), /limits\.cpu \(not set\) → 50m/);
});

test("effective config: a Gateway API duet's own plumbing (each side's GatewayClass selector, its status Service) is not the head's change", async () => {
  const { duetDiff } = await import('../../src/report/effective-config.js');
  const raw = scratchDir('tg-eff-gw-');
  const rep = join(raw, 'traefik-gateway', 'default', 'steady', 'rep-1');
  const args = (side, extra) =>
    [
      '--providers.kubernetesgateway',
      `--providers.kubernetesgateway.labelSelector=tailgate.dev/duet-side=${side}`,
      `--providers.kubernetesgateway.statusaddress.service.name=traefik-gateway${side === 'b' ? '-b' : ''}`,
      `--providers.kubernetesgateway.statusaddress.service.namespace=tailgate-ingress${side === 'b' ? '-b' : ''}`,
      ...extra,
    ].join('\n');
  for (const [side, dir, extra] of [
    ['a', 'proxy', []],
    ['b', 'proxy-b', ['--serversTransport.maxIdleConnsPerHost=320']],
  ]) {
    mkdirSync(join(rep, dir), { recursive: true });
    writeFileSync(join(rep, dir, 'traefik-args.txt'), `${args(side, extra)}\n`);
  }
  const changes = duetDiff(raw, [{ key: 'traefik-gateway/default/steady' }]);
  assert.deepEqual(
    changes.map((c) => `${c.directive}: ${c.before} → ${c.after}`),
    ['--serversTransport.maxIdleConnsPerHost: (not set) → 320'],
  );
});
