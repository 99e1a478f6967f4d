// Hostile stores, artifacts, archives and inputs (issue 41): the history store and page,
// the change-point issue, the comment artifact, the dispatch check, chart archives. One
// test per class, each built from the class as the review described it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { changePoints } from '../../src/history/detect.js';
import { ISSUE_LABEL, ISSUE_MARKER, changesMarkdown, issueBody, upsertChangeIssue } from '../../src/history/issue.js';
import { checkBody } from '../../src/publish/artifact.js';
import { MARKER } from '../../src/report/markdown.js';
import { neutralizeCommands, outputLines } from '../../src/github-output.js';
import { UNPACK_LIMITS, unpackChart } from '../../src/registry/chart-archive.js';
import { runCli } from '../helpers/cli.js';
import { GFM_PYTHON as PYTHON, renderGfm } from '../helpers/gfm.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const RUN = join(ROOT, 'tools/test/fixtures/runs/base');
const scratch = (p) => scratchDir(`tg-${p}-`);

const record = (i, over = {}) => ({
  schemaVersion: 1,
  kind: 'tailgate.history',
  cell: 'nginx-reload/default/churn',
  commit: (0x1000000 + i).toString(16),
  time: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
  profile: 'local',
  workload: 'w1',
  latencyMs: { p99: 4 * (i >= 30 ? 1.5 : 1) * (1 + 0.01 * Math.sin(i * 7)) },
  errors: { total: 0, byClass: {}, rate: 0 },
  ...over,
});

function storeWith(lines) {
  const store = join(scratch('hist'), 'history');
  mkdirSync(join(store, 'local', 'nginx-reload', 'default'), { recursive: true });
  writeFileSync(join(store, 'local', 'nginx-reload', 'default', 'churn.jsonl'), `${lines.join('\n')}\n`);
  return store;
}

test('hostile-history-records: a record of the wrong type is skipped with file:line, and detect still decides', async () => {
  const lines = Array.from({ length: 60 }, (_, i) => JSON.stringify(record(i)));
  lines.splice(10, 0, JSON.stringify(record(99, { latencyMs: { p99: 'fast' } })));
  lines.splice(20, 0, JSON.stringify(record(98, { errors: { total: 1, rate: {} } })));
  lines.splice(25, 0, JSON.stringify(record(97, { cell: 'other/default/churn' })));
  const store = storeWith(lines);
  const r = await runCli(['history', 'detect', '--store', store, '--metrics', 'p99']);
  assert.equal(r.code, 1, r.out); // the planted shift, found: not an internal error (4)
  assert.match(r.out, /churn\.jsonl:11: skipped, latencyMs\.p99: must be number,null/);
  assert.match(r.out, /churn\.jsonl:21: skipped, errors\.rate: must be number/);
  assert.match(r.out, /churn\.jsonl:26: skipped, a record of another cell/);
  assert.match(r.out, /60 points, 1 change point/);
  const page = await runCli(['history', 'report', '--store', store, '--site', join(store, '..', 'site')]);
  assert.equal(page.code, 0, page.out);
});

test('hostile-history-names: a folder whose name is not a name is skipped, never shown', async () => {
  const store = storeWith([JSON.stringify(record(0))]);
  mkdirSync(join(store, 'local', 'x`@evil', 'default'), { recursive: true });
  writeFileSync(join(store, 'local', 'x`@evil', 'default', 'churn.jsonl'), `${JSON.stringify(record(0))}\n`);
  const r = await runCli(['history', 'detect', '--store', store]);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /x.@evil: skipped; its name is not a valid name/);
  assert.doesNotMatch(r.out.replace(/warning:.*\n?/g, ''), /evil/);
});

test('hostile-history-work: the change-point search examines O(n log n) points per level, whatever the values', () => {
  const n = 20_000;
  const shapes = {
    ramp: (i) => i, // every split significant: peeled level after level before the bound
    steps: (i) => Math.floor(i / 5) % 2,
    noise: (i) => Math.sin(i * 12.9898) * 0.05,
  };
  for (const [name, f] of Object.entries(shapes)) {
    const stats = { examined: 0 };
    changePoints(
      Array.from({ length: n }, (_, i) => f(i)),
      {},
      stats,
    );
    // 17 levels of the whole series (depth ≤ 16) + the 50-point windows, each of which
    // examines at most 50 points on at most 10 levels.
    assert.ok(stats.examined > 0 && stats.examined <= 17 * n + (n / 25 + 1) * 50 * 10, `${name}: ${stats.examined}`);
  }
});

test('hostile-history-links: append and report --png refuse to write through a link, and write nothing outside', async () => {
  const outside = scratch('outside');
  const store = join(scratch('hist'), 'history');
  mkdirSync(join(store, 'local'), { recursive: true });
  symlinkSync(outside, join(store, 'local', 'nginx-reload'));
  const r = await runCli(['history', 'append', '--results', RUN, '--commit', 'abcdef1', '--store', store]);
  assert.equal(r.code, 2, r.out);
  assert.match(r.out, /a symbolic link; tailgate never writes through links/);
  assert.deepEqual(readdirSync(outside), []);

  const good = storeWith(Array.from({ length: 12 }, (_, i) => JSON.stringify(record(i))));
  const site = join(good, '..', 'site');
  mkdirSync(site);
  symlinkSync(outside, join(site, 'png'));
  const p = await runCli(['history', 'report', '--store', good, '--site', site, '--png']);
  assert.equal(p.code, 2, p.out);
  assert.deepEqual(readdirSync(outside), []);
  // The site folder itself committed as a link.
  const linked = join(good, '..', 'site2');
  symlinkSync(outside, linked);
  assert.equal((await runCli(['history', 'report', '--store', good, '--site', linked])).code, 2);
  assert.deepEqual(readdirSync(outside), []);
});

test('hostile-change-issue: an issue someone else opened with the label and marker is never overwritten', async () => {
  const calls = [];
  const theirs = { number: 7, user: { login: 'mallory' }, body: `${ISSUE_MARKER}\nplease keep`, labels: [ISSUE_LABEL] };
  const github = {
    paginate: async () => [theirs],
    rest: {
      issues: {
        listForRepo: () => {},
        update: async (a) => calls.push(['update', a.issue_number]),
        create: async () => (calls.push(['create']), { data: { number: 8 } }),
      },
    },
  };
  const r = await upsertChangeIssue(github, { owner: 'acme', repo: 'ingress', body: `${ISSUE_MARKER}\nnew` });
  assert.deepEqual(r, { action: 'created', number: 8 });
  assert.deepEqual(calls, [['create']]);
  // Its own issue is updated.
  theirs.user.login = 'github-actions[bot]';
  calls.length = 0;
  await upsertChangeIssue(github, { owner: 'acme', repo: 'ingress', body: `${ISSUE_MARKER}\nnew` });
  assert.deepEqual(calls, [['update', 7]]);
});

const shift = (over = {}) => ({
  metric: 'p99',
  commit: 'bbbbbbb',
  previous: 'aaaaaaa',
  before: 4,
  after: 5,
  ratio: 1.25,
  direction: 'worse',
  ...over,
});

const render = renderGfm;

test(
  'hostile-markdown-names: a name cannot close its code span, mention or link (rendered by cmark-gfm)',
  { skip: !existsSync(PYTHON) && 'cmark-gfm not installed (make setup installs it)' },
  () => {
    const names = ['x` @mallory `y', 'a`` [pwn](https://evil.example) ``b', 'p|q\n@team', 'www.evil.example'];
    const doc = { series: names.map((n) => ({ profile: n, cell: n, changes: [shift({ metric: n })] })) };
    for (const markdown of [
      issueBody(doc, { repoUrl: 'https://github.com/acme/ingress' }),
      changesMarkdown(doc, { repoUrl: 'https://github.com/acme/ingress' }),
    ]) {
      const html = render(markdown);
      const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
      assert.ok(
        hrefs.every((h) => h.startsWith('https://github.com/acme/ingress/compare/')),
        hrefs.join(' '),
      );
      // Every '@' is followed by the zero-width space GitHub does not mention through.
      assert.doesNotMatch(html, /@(?!\u200b)/);
      // Each row is still one row of five cells: nothing closed a span or a cell early.
      const rows = html.match(/<tr>[\s\S]*?<\/tr>/g).slice(1);
      assert.equal(rows.length, names.length);
      for (const row of rows) assert.equal((row.match(/<td/g) ?? []).length, 5, row);
    }
  },
);

test('hostile-issue-size: when 3,000 cells shift at once the issue body fits GitHub and says what it left out', () => {
  const doc = {
    series: Array.from({ length: 3000 }, (_, i) => ({
      profile: 'local',
      cell: `controller-${i}/tuning-${i}/scenario-${i}`,
      changes: [shift({ ratio: 1 + i / 1000 })],
    })),
  };
  const body = issueBody(doc, { repoUrl: 'https://github.com/acme/ingress' });
  assert.ok(body.length <= 65_536, String(body.length));
  assert.match(body, /3000 shifts for the worse/);
  assert.match(body, /\d+ more shifts left out to fit GitHub's size limit/);
  // The largest shifts are the ones kept.
  assert.match(body, /controller-2999\//);
  assert.ok(changesMarkdown(doc).length <= 65_536);
});

test('hostile-comment-links: a link that starts with the repository URL but resolves elsewhere is refused', () => {
  const repoUrl = 'https://github.com/acme/ingress';
  const body = (link) => `${MARKER}\n[run](${link})\n`;
  checkBody(body(`${repoUrl}/actions/runs/1`), repoUrl);
  for (const link of [
    `${repoUrl}/../../mallory/phish`,
    `${repoUrl}/%2e%2e/%2e%2e/mallory/phish`,
    `${repoUrl}/\\\\..\\\\..\\\\mallory`, // Markdown's \\ is one backslash; a URL parser reads it as '/'
    `<${repoUrl}/../../mallory/phish>`,
    `${repoUrl}-evil/x`,
    `${repoUrl}/(../../../mallory)`,
  ])
    assert.throws(
      () => checkBody(body(link), repoUrl),
      (e) => e.details.some((d) => /links outside/.test(d)),
      link,
    );
});

test('hostile-workflow-commands: a value with a line break becomes no command and no output of its own', () => {
  const env = {
    ...process.env,
    TARGET: 'local',
    COMPARE: 'baseline',
    CONTROLLERS: 'nginx-reload\n::warning::owned%0A',
    TUNINGS: 'default',
    SCENARIOS: 'steady',
    RATE: '10',
    DURATION: '5s',
    REPETITIONS: '1',
  };
  const r = spawnSync('bash', [join(ROOT, 'tools/ci/check-dispatch.sh')], { env, encoding: 'utf8', cwd: ROOT });
  assert.equal(r.status, 2, r.stdout + r.stderr);
  const lines = `${r.stdout}\n${r.stderr}`.split('\n');
  assert.ok(!lines.some((l) => /^\s*::warning::/.test(l)), r.stdout);
  // The message's '::' is broken too: the runner writes it to the log decoded.
  assert.match(r.stdout, /^::error::controllers must be .*nginx-reload%0A:\u200b:warning:\u200b:owned%250A'$/m);
  // step_output refuses; the CLI's outputs use a delimiter; its error lines start no command.
  const so = spawnSync('bash', ['-c', `source tools/ci/lib.sh; step_output $'a=b\\nmatrix=x'`], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, GITHUB_OUTPUT: '' },
  });
  assert.equal(so.status, 2);
  assert.doesNotMatch(so.stdout, /^matrix=/m);
  const out = outputLines('matrix', 'x\ncompare=none');
  assert.match(out, /^matrix<<ghadelimiter_[0-9a-f]+\nx\ncompare=none\nghadelimiter_[0-9a-f]+\n$/);
  assert.equal(
    neutralizeCommands('bad value "x\n  ::set-output name=a::b"'),
    'bad value "x\n  :\u200b:set-output name=a::b"',
  );
});

// A tar archive of the given entries: [{name, type ('0' file, '5' folder, '2' link, '3' device), size}].
function tgz(entries) {
  const blocks = [];
  for (const e of entries) {
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100);
    h.write('0000644\0', 100);
    h.write('0000000\0', 108);
    h.write('0000000\0', 116);
    h.write(`${(e.size ?? 0).toString(8).padStart(11, '0')}\0`, 124);
    h.write('00000000000\0', 136);
    h.write('        ', 148);
    h.write(e.type, 156);
    h.write('ustar\u000000', 257);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(h);
    if (e.size) blocks.push(Buffer.alloc(Math.ceil(e.size / 512) * 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}

test('hostile-chart-archive: an archive that expands past the bound, or holds a device or a climbing name, writes nothing', () => {
  const dir = scratch('charts');
  const into = join(dir, 'unpacked');
  const cases = {
    bomb: [
      { name: 'c/', type: '5' },
      { name: 'c/values.yaml', type: '0', size: UNPACK_LIMITS.bytes + (1 << 20) },
    ],
    device: [
      { name: 'c/', type: '5' },
      { name: 'c/null', type: '3' },
    ],
    climb: [{ name: 'c/../../escaped', type: '0', size: 10 }],
    many: Array.from({ length: UNPACK_LIMITS.entries + 1 }, (_, i) => ({ name: `c/f${i}`, type: '0', size: 0 })),
  };
  for (const [name, entries] of Object.entries(cases)) {
    const archive = join(dir, `${name}.tgz`);
    writeFileSync(archive, tgz(entries));
    assert.throws(() => unpackChart(archive, into, 'c'), /chart archive .*not unpacked/, name);
    assert.ok(!existsSync(into) || readdirSync(into).length === 0, name);
    assert.ok(!existsSync(join(dir, 'escaped')), name);
  }
  // Files and folders unpack; a link is left out.
  const ok = join(dir, 'ok.tgz');
  writeFileSync(
    ok,
    tgz([
      { name: 'c/', type: '5' },
      { name: 'c/Chart.yaml', type: '0', size: 3 },
      { name: 'c/link', type: '2' },
    ]),
  );
  assert.equal(unpackChart(ok, into, 'c'), join(into, 'c'));
  assert.deepEqual(readdirSync(join(into, 'c')), ['Chart.yaml']);
  assert.equal(readFileSync(join(into, 'c', 'Chart.yaml')).length, 3);
});
