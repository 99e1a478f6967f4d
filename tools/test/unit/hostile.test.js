// Hostile and broken inputs (results downloaded from CI artifacts, baselines from other
// people, k6 output from other scripts). Each case: the exit code, a message naming
// the file or field and the rule, and nothing created or changed outside the case's
// own temp root (the tree is hashed before and after).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkBody } from '../../src/publish/artifact.js';
import { runCli } from '../helpers/cli.js';
import { makeRunDir } from '../helpers/run-dir.js';
import { syntheticResult } from '../helpers/synthetic.js';
import { scratchDir } from '../helpers/scratch.js';

const REPO = 'https://github.com/acme/ingress';

function treeHash(dir) {
  const h = createHash('sha256');
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      h.update(`${p}\0${st.isDirectory() ? 'd' : st.size}\0`);
      if (st.isDirectory()) walk(p);
      else h.update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('hex');
}

// Runs the CLI with cwd inside a nested throwaway dir, so that "../" escapes land in
// the outer temp root, where the test looks for them.
async function inSandbox(fn) {
  const outer = scratchDir('tg-hostile-');
  const root = join(outer, 'a', 'b', 'c', 'work');
  mkdirSync(root, { recursive: true });
  const cwd = process.cwd();
  process.chdir(root);
  try {
    return await fn({ outer, root });
  } finally {
    process.chdir(cwd);
  }
}

test('hostile-gnuplot: a string events[].t never reaches gnuplot as code', async () => {
  await inSandbox(async ({ outer, root }) => {
    const run = await makeRunDir({ 'c/t/s': [{ medianMs: 2, seed: 1 }] }, join(root, 'run'));
    const file = join(run, 'c/t/s/rep-1/result.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.events = [{ type: 'pod-killed', ts: 1, t: "1, graph 0; system 'touch PWNED'; set arrow from 1" }];
    writeFileSync(file, JSON.stringify(doc));
    const before = treeHash(outer);
    const r = await runCli(['report', run, '--charts', join(root, 'charts')]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /events|t/);
    assert.ok(!existsSync(join(root, 'PWNED')) && !existsSync(join(root, 'charts', 'c__t__s', 'PWNED')));
    assert.ok(!readdirSync(outer, { recursive: true }).some((n) => String(n).endsWith('PWNED')));
    void before;
  });
});

test('hostile-cell-folder: a cell folder name with quotes is refused by name, not drawn', async () => {
  await inSandbox(async ({ outer, root }) => {
    const run = await makeRunDir(
      { 'x\'; system "touch PWNED"; \'/t/s': [{ medianMs: 2, seed: 2 }] },
      join(root, 'run'),
    );
    const r = await runCli(['report', run, '--charts', join(root, 'charts')]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /is not a valid name; names must match/);
    assert.ok(!readdirSync(outer, { recursive: true }).some((n) => String(n).endsWith('PWNED')));
  });
});

test('hostile-profile: meta.profile "../../../escaped" writes nothing outside baselines/', async () => {
  await inSandbox(async ({ outer, root }) => {
    const run = await makeRunDir(
      { 'c/t/s': [{ medianMs: 2, seed: 3, profile: '../../../escaped' }] },
      join(root, 'run'),
    );
    const before = treeHash(outer);
    for (const argv of [
      ['baseline', 'update', '--results', run],
      ['baseline', 'update', '--results', run, '--force'],
      ['compare', '--results', run],
    ]) {
      const r = await runCli(argv);
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.out}`);
      assert.match(r.out, /meta\.profile.*not a valid name/);
    }
    assert.equal(treeHash(outer), before, 'nothing created or changed');
  });
});

test('hostile-markdown-out: report --markdown never overwrites (its own input least of all)', async () => {
  await inSandbox(async ({ root }) => {
    const a = (await syntheticResult({ medianMs: 2, seed: 4 })).file;
    const verdict = join(root, 'v.json');
    await runCli(['compare', '--baseline', a, a, '--out', verdict]);
    const existing = join(root, 'keep.md');
    writeFileSync(existing, 'precious');
    const r = await runCli(['report', verdict, '--markdown', existing]);
    assert.equal(r.code, 2);
    assert.match(r.out, /already exists.*--force/);
    assert.equal(readFileSync(existing, 'utf8'), 'precious');
    const self = await runCli(['report', verdict, '--markdown', verdict, '--force']);
    assert.equal(self.code, 2);
    assert.match(self.out, /is the input file/);
    assert.equal(JSON.parse(readFileSync(verdict, 'utf8')).kind, 'tailgate.verdict');
  });
});

test('hostile-publish-body: live links and mentions in any form are refused', () => {
  const ok = `<!-- tailgate:sticky-comment -->\nfine [run](${REPO}/actions/runs/1)`;
  assert.doesNotThrow(() => checkBody(ok, REPO));
  const cases = {
    'bare URL': `${ok}\nsee https://evil.example/login`,
    'www link': `${ok}\nsee www.evil.example`,
    'reference in a blockquote': `${ok}\n> [x]: https://evil.example`,
    'reference in a list item': `${ok}\n- [x]: https://evil.example`,
    'mention after a backtick': `${ok}\n\`x\`@someone`,
    'encoded mention': `${ok}\n&#64;someone`,
  };
  for (const [name, body] of Object.entries(cases))
    assert.throws(() => checkBody(body, REPO), /comment artifact rejected/, name);
});

test('hostile-reasons: a URL inside a cell error travels to the comment as text, not a link', async () => {
  await inSandbox(async ({ root }) => {
    const run = await makeRunDir(
      { 'c/t/s': [{ cellError: 'see https://evil.example/login or www.evil.example, ask @admin' }] },
      join(root, 'run'),
    );
    const verdict = join(root, 'v.json');
    await runCli(['compare', '--results', run, '--out', verdict]);
    const md = join(root, 'c.md');
    await runCli(['report', verdict, '--markdown', md]);
    const body = readFileSync(md, 'utf8');
    assert.doesNotThrow(() => checkBody(body, REPO), "tailgate's own comment passes its own publisher");
    assert.ok(!/https:\/\/evil/.test(body) && !/www\.evil/.test(body));
  });
});

test('hostile-writes: a second write to the same --out fails; --out a folder leaves nothing behind; --base-ref "" is refused', async () => {
  await inSandbox(async ({ root }) => {
    const a = (await syntheticResult({ medianMs: 2, seed: 5 })).file;
    const out = join(root, 'v.json');
    assert.equal((await runCli(['compare', '--baseline', a, a, '--out', out])).code, 0);
    const again = await runCli(['compare', '--baseline', a, a, '--out', out]);
    assert.equal(again.code, 2);
    assert.match(again.out, /already exists/);
    const folder = join(root, 'dir');
    mkdirSync(folder);
    const r = await runCli(['compare', '--baseline', a, a, '--out', folder, '--force']);
    assert.equal(r.code, 2, r.out);
    assert.deepEqual(
      readdirSync(root).filter((n) => n.includes('.tmp-')),
      [],
    );
    const run = await makeRunDir({ 'c/t/s': [{ medianMs: 2, seed: 6 }] }, join(root, 'run'));
    const empty = await runCli(['compare', '--results', run, '--base-ref', '']);
    assert.equal(empty.code, 2);
    assert.match(empty.out, /--base-ref is empty/);
  });
});

test('hostile-intervals: edited intervals, reliable flags and p99.99 cannot change the verdict', async () => {
  await inSandbox(async ({ root }) => {
    const base = (await syntheticResult({ medianMs: 2, seed: 7 })).file;
    const { result } = await syntheticResult({ medianMs: 2, scale: 9, seed: 8 });
    const honest = join(root, 'honest.json');
    writeFileSync(honest, JSON.stringify(result));
    const edited = structuredClone(result);
    for (const iv of Object.values(edited.latency.intervals))
      Object.assign(iv, { low: 0.001, high: 1e6, reliable: false });
    const file = join(root, 'edited.json');
    writeFileSync(file, JSON.stringify(edited));
    const a = await runCli(['compare', '--baseline', base, honest]);
    const b = await runCli(['compare', '--baseline', base, file]);
    assert.equal(a.code, 1);
    assert.equal(b.code, 1, 'intervals come from the histogram, not from the file');
    const tail = structuredClone(result);
    tail.latency.percentiles['p99.99'] = 0.001;
    const t = join(root, 'tail.json');
    writeFileSync(t, JSON.stringify(tail));
    const c = await runCli(['compare', '--baseline', base, t]);
    assert.equal(c.code, 2);
    assert.match(c.out, /percentiles\.p99\.99 is 0\.001 but the histogram says/);
  });
});

test('hostile-mismatch: another cell as the base is inconclusive; a cell missing on one side is never dropped', async () => {
  await inSandbox(async ({ root }) => {
    const b = (await syntheticResult({ cell: 'nginx-dynamic/default/steady', medianMs: 2, seed: 9 })).file;
    const h = (await syntheticResult({ cell: 'nginx-reload/default/steady', medianMs: 2, seed: 10 })).file;
    const r = await runCli(['compare', '--baseline', b, h]);
    assert.equal(r.code, 3);
    assert.match(r.out, /not the same cell/);
    const base = await makeRunDir(
      { 'c/t/s': [{ medianMs: 2, seed: 11 }], 'c/t/lost': [{ medianMs: 2, seed: 12 }] },
      join(root, 'base'),
    );
    const head = await makeRunDir({ 'c/t/s': [{ medianMs: 2, seed: 13 }] }, join(root, 'head'));
    const p = await runCli(['compare', '--paired', '--base-results', base, '--head-results', head]);
    assert.equal(p.code, 3, p.out);
    assert.match(p.out, /no head results for c\/t\/lost/);
  });
});

test('hostile-config: prototype names and duplicate cells are refused with the field and rule', async () => {
  await inSandbox(async ({ root }) => {
    const write = (name, text) => (writeFileSync(join(root, name), text), join(root, name));
    const head =
      'apiVersion: tailgate/v1\nkind: Bench\ncontrollers: { a: { type: local, variant: nginx-reload } }\nscenarios: { s: { script: steady, rate: 1000, duration: 2s } }\n';
    const cases = [
      [
        'proto-tuning.yaml',
        `${head}matrices: { m: { target: local, controllers: [a], scenarios: [s], tunings: [constructor] } }\n`,
        /unknown tuning "constructor"/,
      ],
      [
        'proto-scenario.yaml',
        `${head}matrices: { m: { target: local, controllers: [a], scenarios: [constructor] } }\n`,
        /unknown scenario "constructor"/,
      ],
      [
        'proto-profile.yaml',
        `${head}matrices: { m: { target: local, profile: constructor, controllers: [a], scenarios: [s] } }\n`,
        /unknown profile "constructor"/,
      ],
      [
        'duplicates.yaml',
        `${head}matrices: { m: { target: local, controllers: [a, a], scenarios: [s] } }\n`,
        /duplicate/,
      ],
      [
        'alias-bomb.yaml',
        `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n`,
        /alias/i,
      ],
    ];
    for (const [name, text, pattern] of cases) {
      const r = await runCli(['validate', '--config', write(name, text)]);
      assert.equal(r.code, 2, `${name}: ${r.out}`);
      assert.match(r.out, pattern, name);
      assert.ok(r.out.includes(name), `${name}: names the file`);
    }
    const valid = write('ok.yaml', `${head}matrices: { m: { target: local, controllers: [a], scenarios: [s] } }\n`);
    for (const m of ['__proto__', 'toString', 'constructor']) {
      const r = await runCli(['plan', '--config', valid, '--matrix', m]);
      assert.equal(r.code, 2, `--matrix ${m}: ${r.out}`);
      assert.match(r.out, /no matrix/);
    }
  });
});

test('hostile-ingest: absurd k6 output and metadata are bad input (exit 2), never a result', async () => {
  const { durationLine, droppedLine, k6File } = await import('../helpers/k6-lines.js');
  await inSandbox(async ({ outer, root }) => {
    const t0 = Date.parse('2026-11-22T10:00:00Z');
    const write = (name, content) => (writeFileSync(join(root, name), content), join(root, name));
    const ok = Array.from({ length: 50 }, (_, i) => durationLine({ ts: t0 + i, ms: 1 }));
    const cases = [
      ['negative-drops.json.gz', k6File([...ok, droppedLine({ ts: t0, count: -5 })]), /dropped_iterations value/],
      ['huge-latency.json.gz', k6File([...ok, durationLine({ ts: t0, ms: 1e13 })]), /outside 0/],
      ['bad-status.json.gz', k6File([...ok, durationLine({ ts: t0, ms: 1, status: 'abc' })]), /status tag/],
      ['long-line.json', `${ok[0]}\n{"metric":"x","data":"${'a'.repeat(2 << 20)}"}\n`, /longer than/],
    ];
    for (const [name, content, pattern] of cases) {
      const r = await runCli(['ingest', write(name, content), '--out', join(root, `${name}.result.json`)]);
      assert.equal(r.code, 2, `${name}: ${r.out}`);
      assert.match(r.out, pattern, name);
      assert.ok(!existsSync(join(root, `${name}.result.json`)), `${name}: nothing written`);
    }
    const good = write('good.json.gz', k6File(ok));
    const dirInput = await runCli(['ingest', root, '--out', join(root, 'x.json')]);
    assert.equal(dirInput.code, 2, dirInput.out);
    for (const [name, meta, pattern] of [
      ['null-meta.json', 'null', /must be a JSON object/],
      ['bad-meta.json', '{"rate":0,"durationMs":0.0001,"profile":"../x","k6ExitCode":"0"}', /4 problem/],
    ]) {
      const r = await runCli(['ingest', good, '--meta', write(name, meta), '--out', join(root, `${name}.out.json`)]);
      assert.equal(r.code, 2, `${name}: ${r.out}`);
      assert.match(r.out, pattern, name);
    }
    const events = write('events.jsonl', 'null\n');
    const ev = await runCli(['ingest', good, '--events', events, '--out', join(root, 'ev.json')]);
    assert.equal(ev.code, 2, ev.out);
    assert.match(ev.out, /events\.jsonl:1: an event is an object/);
    // Only warm-up samples: nothing measured, inconclusive — warm-up is never gated.
    const warm = write(
      'warm.json.gz',
      k6File(Array.from({ length: 50 }, (_, i) => durationLine({ ts: t0 + i, ms: 1, phase: 'warmup' }))),
    );
    const w = await runCli(['ingest', warm, '--out', join(root, 'warm.result.json')]);
    assert.equal(w.code, 3, w.out);
    assert.deepEqual(
      readdirSync(outer, { recursive: true }).filter((n) => String(n).includes('.tmp-')),
      [],
    );
  });
});

test("hostile-size: a comment for 900 cells fits the publisher's byte limit", async () => {
  const { renderMarkdown, GITHUB_COMMENT_LIMIT } = await import('../../src/report/markdown.js');
  const cells = Array.from({ length: 900 }, (_, i) => ({
    cell: `controller-${i}/tuning-${i}/scenario-${i}`,
    verdict: 'pass',
    reasons: [],
    warnings: [],
    metrics: [],
    head: { p50: 0.5, p99: 1.2, 'p99.99': 9, errors: 0, p99_99Reliable: false },
    base: { errors: 0 },
  }));
  const body = renderMarkdown({ kind: 'tailgate.verdict', mode: 'paired', overall: 'pass', exitCode: 0, cells });
  assert.ok(Buffer.byteLength(body) <= GITHUB_COMMENT_LIMIT, `${Buffer.byteLength(body)} bytes`);
  assert.doesNotThrow(() => checkBody(body, REPO));
});

test('hostile-durations: absurd durations in bench.yaml and on the command line are refused', async () => {
  await inSandbox(async ({ root }) => {
    const file = join(root, 'b.yaml');
    writeFileSync(
      file,
      'apiVersion: tailgate/v1\nkind: Bench\ncontrollers: { a: { type: local, variant: nginx-reload } }\nscenarios: { s: { script: steady, rate: 1000, duration: 99999999999999999999h } }\nmatrices: { m: { target: local, controllers: [a], scenarios: [s] } }\n',
    );
    const v = await runCli(['validate', '--config', file]);
    assert.equal(v.code, 2);
    assert.match(v.out, /scenarios\.s\.duration: must be at most 24h/);
    const ok = join(root, 'ok.yaml');
    writeFileSync(ok, readFileSync(file, 'utf8').replace('99999999999999999999h', '2s'));
    for (const d of ['0s', '500ms', '25h']) {
      const r = await runCli(['run', '--config', ok, '--matrix', 'm', '--duration', d, '--dry-run']);
      assert.equal(r.code, 2, `--duration ${d}: ${r.out}`);
      assert.match(r.out, /--duration: expected from 1s to 24h/);
    }
  });
});

test('hostile-verdict-folders: a verdict naming a folder outside the working directory is refused', async () => {
  await inSandbox(async ({ root }) => {
    const a = (await syntheticResult({ medianMs: 2, seed: 20 })).file;
    const v = join(root, 'v.json');
    await runCli(['compare', '--baseline', a, a, '--out', v]);
    const doc = JSON.parse(readFileSync(v, 'utf8'));
    writeFileSync(v, JSON.stringify({ ...doc, runDir: '/etc' }));
    const r = await runCli(['report', v, '--charts', join(root, 'charts')]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /resolves outside/);
  });
});

test('hostile-verdict: report checks a verdict against schemas/verdict.schema.json first', async () => {
  await inSandbox(async ({ root }) => {
    const a = (await syntheticResult({ medianMs: 2, seed: 21 })).file;
    const v = join(root, 'v.json');
    assert.equal((await runCli(['compare', '--baseline', a, a, '--out', v])).code, 0);
    assert.equal((await runCli(['report', v])).code, 0, 'what compare writes is valid');
    const doc = JSON.parse(readFileSync(v, 'utf8'));
    writeFileSync(v, JSON.stringify({ ...doc, overall: 'great', cells: [{ ...doc.cells[0], cell: '../x/y' }] }));
    const r = await runCli(['report', v]);
    assert.equal(r.code, 2);
    assert.match(r.out, /does not match schemas\/verdict\.schema\.json/);
  });
});

test('hostile: an error count from a file that is not a number never shapes the gnuplot script', async () => {
  const { drawErrors, drawErrorOverlay } = await import('../../src/report/charts.js');
  const dir = scratchDir('tg-hostile-tics-');
  const result = { timeline: [{ t: 0, errors: '1\nsystem("id")', errorsByClass: {} }], events: [] };
  assert.throws(
    () => drawErrors(dir, result, 't'),
    (e) => e.exitCode === 2 && /timeline errors: expected a finite number/.test(e.message),
  );
  assert.throws(
    () => drawErrorOverlay(dir, [{ label: 'x', result }], 't'),
    (e) => e.exitCode === 2,
  );
  assert.ok(!readdirSync(dir).some((f) => f.endsWith('.gp')), 'no script written');
});

test('hostile-result-numbers: a non-finite number (1e400) or an unknown key in a result is refused with file and field', async () => {
  await inSandbox(async ({ outer, root }) => {
    const run = await makeRunDir({ 'c/t/s': [{ medianMs: 2, seed: 5 }] }, join(root, 'run'));
    const file = join(run, 'c', 't', 's', 'rep-1', 'result.json');
    const good = readFileSync(file, 'utf8');
    const cases = [
      [
        good.replace(/"achievedRate": *[0-9.]+/, '"achievedRate": 1e400'),
        /load\.achievedRate: must be a finite number/,
      ],
      [
        good.replace(/"requests": *\{/, '"requests": { "bogus": 1,'),
        /requests\.bogus: unknown field \(check spelling; see schemas\/result\.schema\.json\)/,
      ],
      [good.replace(/^\{/, '{ "extra": true,'), /extra: unknown field/],
    ];
    for (const [text, why] of cases) {
      assert.notEqual(text, good, 'the case changed the file');
      writeFileSync(file, text);
      const before = treeHash(outer);
      const r = await runCli(['compare', '--results', run]);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /result\.json: does not match schemas\/result\.schema\.json/);
      assert.match(r.out, why);
      assert.equal(treeHash(outer), before, 'nothing created or changed');
    }
  });
});
