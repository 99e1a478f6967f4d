// make perf: benchmarks of tailgate itself, figures printed and written into
// docs/performance.md (between the perf markers) and results/perf-<timestamp>.json.
//   PERF_BIG=1     also ingest 10M requests
//   PERF_ONLY=ingest,k6,vegeta,gate,concurrent,runners,plan,history,kind,kind-routes,kind-migration
//                  run a subset (kind: where the
//   offline kind images are built; tools/scripts/perf.sh sets up its environment)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/exec/tools.js';
import { generate } from './generate.js';
import { cliIngestBench, ingestBench } from './ingest-bench.js';
import { k6Bench } from './k6-bench.js';
import { vegetaBench } from './vegeta-bench.js';
import { which } from '../src/exec/tools.js';
import { gateBench } from './gate-bench.js';
import { concurrentBench } from './concurrent-bench.js';
import { planBench, runnersBench } from './scale-bench.js';
import { kindDuetBench } from './kind-duet-bench.js';
import { kindRoutesBench } from './kind-routes-bench.js';
import { kindMigrationBench } from './kind-migration-bench.js';
import { historyBench } from './history-bench.js';

const ALL = [
  'ingest',
  'k6',
  'vegeta',
  'gate',
  'concurrent',
  'runners',
  'plan',
  'history',
  'kind',
  'kind-routes',
  'kind-migration',
];
const only = process.env.PERF_ONLY?.split(',') ?? ALL;
const dataDir = join(ROOT, '.tools', 'perf');
mkdirSync(dataDir, { recursive: true });
const figures = { date: new Date().toISOString(), machine: (await import('../src/result/machine.js')).machineInfo() };
const lines = [];
// Limits a figure broke: make perf still writes every figure, then fails naming them.
const failed = [];
const say = (s) => {
  console.log(s);
  lines.push(s);
};

if (only.includes('ingest')) {
  const sizes = process.env.PERF_BIG === '1' ? [1_000_000, 10_000_000] : [1_000_000];
  figures.ingest = [];
  // tailgate's scenarios' tags, and k6's default tags (a user's own script): 1M each.
  const files = [
    ...sizes.map((n) => ({ n, tags: 'tailgate', file: join(dataDir, `k6-${n / 1e6}m.json.gz`) })),
    { n: 1_000_000, tags: 'k6-default', file: join(dataDir, 'k6-1m-default-tags.json.gz') },
  ];
  for (const { n, tags, file } of files) {
    if (!existsSync(file)) {
      console.log(`generating ${file} …`);
      await generate(file, n, { tags });
    }
    const r = await ingestBench(file, n);
    figures.ingest.push({ ...r, tags });
  }
  say('**Ingest** (k6 `--out json` gzipped, 13 lines per request, median of 3 runs in one session):');
  say('');
  say(
    '| requests | tags | file | zcat > /dev/null | tailgate ingest (CPU) | ratio to zcat | requests per CPU-second | peak RSS |',
  );
  say('|--:|---|--:|--:|--:|--:|--:|--:|');
  for (const r of figures.ingest) {
    say(
      `| ${(r.requests / 1e6).toFixed(0)}M | ${r.tags === 'tailgate' ? "tailgate's" : "k6's defaults (a user's script)"} | ${r.fileMB.toFixed(0)} MB gz | ${(r.zcatMs / 1000).toFixed(2)} s | ${(r.ingestCpuMs / 1000).toFixed(2)} s | ${r.ratio.toFixed(2)}× | ${Math.round(r.requestsPerCpuSecond).toLocaleString('en')} | ${r.maxRssMB.toFixed(0)} MB |`,
    );
  }
  say('');
  // The limit make perf keeps (issue 54, item 6): reading one PR cell's k6 file (each side
  // of a duet reads all of it), the CLI's start-up and the events included.
  const duet = join(dataDir, 'k6-100k-duet.json.gz');
  const events = join(dataDir, 'k6-100k-duet.events.jsonl');
  if (!existsSync(duet) || !existsSync(events)) await generate(duet, 100_000, { tags: 'duet', events });
  const c = (figures.ingestCli = cliIngestBench(duet, 100_000, { events }));
  say(
    `**\`tailgate ingest\`** of a pod-kill duet's 100k-request file (${c.fileMB.toFixed(1)} MB gz, both sides, the kills' events), median of ${c.reps} runs alternated with zcat: ${(c.ingestCpuMs / 1000).toFixed(2)} CPU-s against ${(c.zcatMs / 1000).toFixed(2)} s — **${c.ratio.toFixed(2)}× zcat** (limit ${c.limit}×${c.over ? ': **over it**' : ''}).`,
  );
  say('');
  if (c.over) failed.push(`ingest: ${c.ratio.toFixed(2)}× zcat's CPU on 100k requests, over the ${c.limit}× limit`);
}

// k6 only where its release binary is installed (docs/engines.md); Vegeta everywhere.
if (only.includes('k6') && !which('k6')) say('**k6 CPU**: not measured here (no k6 release binary on this machine).\n');
if (only.includes('k6') && which('k6')) {
  figures.k6 = await k6Bench();
  const k = figures.k6;
  say(
    `**k6 CPU** at ${k.rate} requests/s for ${k.seconds} s against one local nginx pod (median of ${k.reps}, variants alternated):`,
  );
  say('');
  say('| script | k6 CPU per 1k requests | ratio | dropped iterations |');
  say('|---|--:|--:|--:|');
  for (const v of k.variants)
    say(`| ${v.label} | ${v.cpuPer1k.toFixed(3)} s | ${v.ratio.toFixed(2)}× | ${v.dropped} |`);
  say('');
}

if (only.includes('vegeta')) {
  figures.vegeta = await vegetaBench();
  const v = figures.vegeta;
  say(
    `**Vegeta CPU** at ${v.rate} requests/s for ${v.seconds} s against one local nginx pod, the attack \`tailgate run\` starts for the steady scenario (median of ${v.reps}): **${v.attackCpuPer1k.toFixed(3)} s per 1k requests**, plus ${v.encodeCpuPer1k.toFixed(3)} s for \`vegeta encode\` to the JSON ingest reads; peak memory ${v.peakRssMiB ?? '?'} MiB.`,
  );
  say('');
}

if (only.includes('gate')) {
  figures.gate = await gateBench({ rawFile: join(dataDir, 'gate-runs.json') });
  const g = figures.gate;
  const pct = (a, b) => `${a}/${b} (${((100 * a) / b).toFixed(0)}%)`;
  say(
    `**Gate on this machine**: PRs of ${g.shape.cells.length} cells × ${g.shape.pairs} interleaved base/head pairs on the local target (steady ${g.shape.rate} requests/s × ${g.shape.seconds} s; one cell with backend errors, one with churn), gated as the PR workflow gates — paired, Holm over every blocking test, a confirmation round with ${g.shape.pairs} fresh pairs for candidate cells; ${g.runs} real runs:`,
  );
  say('');
  say(
    `- No-op PRs (A/A) failed: ${pct(g.aa.failed, g.aa.prs)}; needed a confirmation round: ${pct(g.aa.confirmationRounds, g.aa.prs)}.`,
  );
  say(
    `- p99 canary (+${g.canaries.delayMs} ms backend delay in one cell, ≈ +50% p99) caught: ${pct(g.canaries.slow.caught, g.canaries.slow.prs)}; error canary (backend error rate ×3 in one cell) caught: ${pct(g.canaries.errors.caught, g.canaries.errors.prs)}.`,
  );
  say('');
  say(
    '| cell | p99 median | sd of log p99, run to run | sd of log(head/base) in a pair | share of the noise a pair shares |',
  );
  say('|---|--:|--:|--:|--:|');
  for (const n of g.noise)
    say(`| ${n.cell} | ${n.p99MedianMs} ms | ${n.sdLogRun} | ${n.sdLogPairRatio} | ${n.shared} |`);
  say('');
}

if (only.includes('concurrent')) {
  figures.concurrent = await concurrentBench({ interleaved: figures.gate?.noise });
  const c = figures.concurrent;
  say(
    '**Concurrent A/B** (base and head data planes live at once in front of the same pods, k6 alternating requests; same cells and load per side; each pair is one run):',
  );
  say('');
  say('| cell | A/A pairs | sd of log(head/base) p99, concurrent | interleaved (above) | variance ratio |');
  say('|---|--:|--:|--:|--:|');
  for (const r of c.noise)
    say(
      `| ${r.cell} | ${r.pairs} | ${r.sdLogPairRatio} | ${r.interleavedSdLogPairRatio ?? '–'} | ${r.varianceRatio ?? '–'} |`,
    );
  say('');
  say(
    `- No-op PRs (concurrent pairs) failed: ${c.noop.failed}/${c.noop.prs}; confirmation rounds: ${c.noop.rounds}/${c.noop.prs}.`,
  );
  say(
    `- p99 canary (+${c.canary.delay} in the head's proxy only, measured p99 ×${c.canary.p99Ratio}) caught: ${c.canary.caught}/${c.canary.prs}.`,
  );
  say('');
}

if (only.includes('runners') && !which('k6')) say('**One k6 or two**: not measured here (no k6 release binary).\n');
if (only.includes('runners') && which('k6')) {
  figures.runners = await runnersBench();
  const r = figures.runners;
  say(
    `**One k6 or two** (constant arrival rate for ${r.seconds} s against one local nginx pod, tailgate's steady scenario with its gzipped JSON output; two runners are execution segments of one scenario, as \`runners: 2\` runs them): highest rate with 0 dropped iterations — 1 runner: **${r.best[1]}/s**, 2 runners: **${r.best[2]}/s**.`,
  );
  say('');
  say('| rate | dropped, 1 runner | k6 CPU-s | dropped, 2 runners | k6 CPU-s |');
  say('|--:|--:|--:|--:|--:|');
  for (const x of r.rows) say(`| ${x.rate}/s | ${x.dropped1} | ${x.cpu1} | ${x.dropped2} | ${x.cpu2} |`);
  say('');
}

if (only.includes('plan')) {
  figures.plan = await planBench();
  const p = figures.plan;
  say(
    `**Plan estimate vs the run**: \`tailgate plan\` estimated ${p.estimateS} s for ${p.cells} local cells (nginx-reload, steady + churn, 6 s × 2 repetitions); the run took ${p.measuredS} s (×${p.ratio}).`,
  );
  say('');
}

if (only.includes('kind')) {
  figures.kind = await kindDuetBench();
  const k = figures.kind;
  if (k.skipped) say(`**Duet on kind**: skipped — ${k.skipped}.`);
  else {
    say(
      `**Duet on kind** (Traefik A/A, steady 300 requests/s per side × 15 s, offline kind on this machine): ${k.duet.pairs} duet pairs (two releases in one cluster, the same pods, requests alternating) and ${k.interleaved.pairs} interleaved pairs (two clusters up at once, runs alternating), one session:`,
    );
    say('');
    say('| design | pairs | sd of log(head/base) p50 | p99 | p99.9 | base p99 (median) | wall time | under load |');
    say('|---|--:|--:|--:|--:|--:|--:|--:|');
    for (const [name, d] of [
      ['duet', k.duet],
      ['interleaved', k.interleaved],
    ])
      say(
        `| ${name} | ${d.pairs} | ${d.p50.sdLogRatio} | ${d.p99.sdLogRatio} | ${d['p99.9'].sdLogRatio} | ${d.p99.medianBaseMs} ms | ${d.wallS} s | ${d.loadShare}% |`,
      );
    say('');
    say(
      `- No-op PRs (A/A duets, 3 pairs each, the next 3 as a confirmation round): green ${k.noop.passed}/${k.noop.prs}, inconclusive ${k.noop.inconclusive}/${k.noop.prs}, failed ${k.noop.failed}/${k.noop.prs}; confirmation rounds ${k.noop.rounds}/${k.noop.prs}.`,
    );
    say(
      `- p99 canary (the head's route adds 1 ms at the pods; measured p99 ×${k.canary.p99Ratio}): caught ${k.canary.failed}/${k.canary.prs}.`,
    );
    say(
      `- ×1.2-class p99 canary at 45 s per side (1 ms on a quarter of the head's requests, \`gate: {assumedDuetCv: 0.06}\`; measured p99 ×${k.canaryLong.p99Ratio}): caught ${k.canaryLong.failed}/${k.canaryLong.prs}.`,
    );
    const e = k.errorCanary;
    say(
      `- Error canary (503 for 0.3% of the head's responses over 0.1% on both routes; measured ×${e.errorRatio}, ${e.headErrors} vs ${e.baseErrors}): caught ${e.failed}/${e.prs}.`,
    );
    say(
      `- \`tailgate plan\`'s estimate for this machine against each run's wall time: ${Object.entries(k.estimates)
        .map(([name, t]) => `${name} ${t.estimateS} s → ${t.wallS} s (×${t.ratio})`)
        .join('; ')}.`,
    );
    const x = k.crossTalk;
    say(
      `- Cross-talk: the base's p99 beside a head logging every request (p99 ${x.headP99HogMs} ms) was ${x.baseP99HogMs} ms, beside an equal head ${x.baseP99AaMs} ms (p50 ${x.baseP50HogMs} vs ${x.baseP50AaMs} ms).`,
    );
    say('');
  }
}

if (only.includes('history')) {
  const h = (figures.history = historyBench());
  say(
    `**History** (\`tools/perf/history-bench.js\`: a store of ${h.cells} cells × ${h.points} nightly records, each step its own \`tailgate history\` process):`,
  );
  say('');
  say('| step | wall time | peak memory |');
  say('|---|--:|--:|');
  for (const [name, x] of [
    ['append one run', h.append],
    ['detect (every cell × p99, p99.99, errors)', h.detect],
    ['report: the page', h.page],
    ['report --png: the page + 50 gnuplot charts', h.png],
    ['detect at the store limit: 50 cells × 20,000 records', h.detectAtLimit],
    ['detect of one 20,000-record ramp (every split significant)', h.detectRamp],
  ])
    say(`| ${name} | ${x.seconds} s | ${x.peakMb} MB |`);
  say('');
}

if (only.includes('kind-routes')) {
  const k = (figures.kindRoutes = await kindRoutesBench());
  if (k.skipped) say(`**Routes on kind**: skipped — ${k.skipped}.`);
  else {
    say(
      '**Routes on kind** (`tools/perf/kind-routes.bench.yaml`: duets under 200 requests/s per side, each run 20 routes added one a second, the loaded route switched to a second Service and back 4 times, 4 routes removed; propagation = API server accepted → the data plane follows):',
    );
    say('');
    say(
      '| duet | side | pairs | added: n, p50 / p99 / max | changed: n, p50 / max | removed: n, p50 / max | errors on the way | load errors | sd log(head/base) p50 | PRs: green / red / inconclusive |',
    );
    say('|---|---|--:|---|---|---|--:|--:|--:|---|');
    const f = (e, all = true) => `${e.followed}/${e.edits}, ${e.p50} / ${all ? `${e.p99} / ` : ''}${e.max} ms`;
    for (const d of Object.values(k).filter((x) => x.matrix))
      for (const side of ['base', 'head']) {
        const x = d[side];
        say(
          `| ${d.matrix} | ${side} | ${d.pairs} | ${f(x.add)} | ${f(x.change, false)} | ${f(x.remove, false)} | ${x.add.errors + x.change.errors + x.remove.errors} | ${x.loadErrors} of ${x.requests} | ${side === 'head' ? d.sdLogP50 : ''} | ${side === 'head' ? `${d.prs.passed} / ${d.prs.failed} / ${d.prs.inconclusive}` : ''} |`,
        );
      }
    say('');
  }
  if (k.sweep) {
    say('Cost per route (`routes-sweep`: N routes carried before 200 requests/s, one cluster per controller):');
    say('');
    say('| controller | routes | all answering after | apply | controller CPU | RSS after | load p99 | errors |');
    say('|---|--:|--:|--:|--:|--:|--:|--:|');
    for (const c of ['traefik', 'haproxy-ingress'])
      for (const r of k.sweep[c].rows)
        say(
          `| ${c} | ${r.routes} | ${r.allAnsweredS} s | ${r.appliedS} s | ${r.cpuSeconds} s | ${r.rssMiBAfter} MiB | ${r.p99Ms} ms | ${r.errors} |`,
        );
    say('');
    say(
      `Per 100 routes (slope over the sweep): Traefik ${k.sweep.traefik.per100.cpuSeconds} s CPU, ${k.sweep.traefik.per100.rssMiB} MiB; haproxy-ingress ${k.sweep['haproxy-ingress'].per100.cpuSeconds} s CPU, ${k.sweep['haproxy-ingress'].per100.rssMiB} MiB.`,
    );
    say('');
  }
}

if (only.includes('kind-migration')) {
  const k = (figures.kindMigration = await kindMigrationBench());
  if (k.skipped) say(`**Migration on kind**: skipped — ${k.skipped}.`);
  else {
    say(
      '**Migration on kind** (`tools/perf/kind-migration.bench.yaml`: steady 500 requests/s per side for 20 s; each migration as duet pairs and as alternate pairs in one cluster, the same pairs read both ways; p99 at a 10% margin):',
    );
    say('');
    say(
      '| from → candidate | mode | pairs | wall | sd log(p99 ratio) | pairs for an equal candidate | verdict | verdict the other way | CPU per 1k (from / candidate) | p99 (from / candidate) |',
    );
    say('|---|---|--:|--:|--:|--:|---|---|---|---|');
    const v = (x) =>
      `${x.overall}: ×${x.p99.ratio} (${x.p99.lower}–${x.p99.upper})${x.p99.pairsNeeded ? `, ~${x.p99.pairsNeeded} pairs would decide` : ''}`;
    for (const g of k.migrations) {
      for (const mode of ['duet', 'alternate']) {
        const m = g[mode];
        if (m.error) {
          say(`| ${g.from} → ${g.to} | ${mode} | failed: ${m.error.split('\n')[0]} |`);
          continue;
        }
        const [a, b] = m.sides;
        say(
          `| ${g.from} → ${g.to} | ${mode} | ${m.pairs} | ${m.wallS} s | ${m.sdLogP99} | ${m.pairsForEqual} | ${v(m.forward)} | ${v(m.backward)} | ${a.cpuPer1k} / ${b.cpuPer1k} s | ${a.p99Ms} / ${b.p99Ms} ms |`,
        );
      }
      if (g.crossTalk)
        say(
          `| | cross-talk (duet ÷ alone) | | | | | ${g.from}: CPU ×${g.crossTalk[g.from].cpuRatio}, p99 ×${g.crossTalk[g.from].p99Ratio} | ${g.to}: CPU ×${g.crossTalk[g.to].cpuRatio}, p99 ×${g.crossTalk[g.to].p99Ratio} | | |`,
        );
    }
    say('');
  }
}

const out = join(ROOT, 'results', `perf-${figures.date.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.json`);
mkdirSync(join(ROOT, 'results'), { recursive: true });
writeFileSync(out, `${JSON.stringify(figures, null, 1)}\n`);
if (only.length === ALL.length) {
  const readme = join(ROOT, 'docs', 'performance.md');
  const text = readFileSync(readme, 'utf8');
  const block = `<!-- perf:begin -->\nMeasured by \`make perf\` on ${figures.date.slice(0, 10)} (${figures.machine.cpus} × ${figures.machine.cpuModel}); raw figures in \`${out.slice(ROOT.length)}\` of that run.\n\n${lines.join('\n')}\n<!-- perf:end -->`;
  writeFileSync(readme, text.replace(/<!-- perf:begin -->[\s\S]*<!-- perf:end -->/, block));
  console.log(`docs/performance.md updated; figures in ${out}`);
}
if (failed.length) {
  for (const f of failed) console.error(`perf: ${f}`);
  process.exitCode = 1;
}
