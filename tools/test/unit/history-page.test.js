// The history page in a real headless browser (Chromium from the OS packages, driven by
// puppeteer-core): it loads without console errors, every cell's three charts render, a
// planted change point is drawn at its commit and linked to the commit range.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { rng } from '../helpers/synthetic.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

function store() {
  const dir = join(scratchDir('tg-hist-page-'), 'history');
  const r = rng(77);
  const normal = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  for (const [cell, step] of [
    ['traefik/default/steady', 30],
    ['haproxy-ingress/default/pod-kill', null],
  ]) {
    const [c, t, s] = cell.split('/');
    mkdirSync(join(dir, 'gha', c, t), { recursive: true });
    const lines = Array.from({ length: 50 }, (_, i) => {
      const p99 = 4 * Math.exp(0.05 * normal()) * (step !== null && i >= step ? 1.4 : 1);
      return JSON.stringify({
        schemaVersion: 1,
        kind: 'tailgate.history',
        cell,
        commit: (0xa000000 + i).toString(16),
        time: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
        profile: 'gha',
        run: `https://github.com/acme/ingress/actions/runs/${1000 + i}`,
        latencyMs: { p50: 0.5, p99, 'p99.9': p99 * 2, 'p99.99': p99 * 3 * Math.exp(0.1 * normal()) },
        errors: { total: 0, byClass: {}, rate: 0.0001 * Math.exp(0.2 * normal()) },
      });
    });
    writeFileSync(join(dir, 'gha', c, t, `${s}.jsonl`), `${lines.join('\n')}\n`);
  }
  return dir;
}

test(
  'history page: loads in headless Chromium without console errors; every cell charts p99, p99.99 and errors; the planted change point is drawn and linked',
  { skip: !CHROMIUM && 'no Chromium (apt-get install chromium)', timeout: 120_000 },
  async () => {
    const site = scratchDir('tg-site-');
    const r = await runCli([
      'history',
      'report',
      '--store',
      store(),
      '--site',
      site,
      '--repo-url',
      'https://github.com/acme/ingress',
    ]);
    assert.equal(r.code, 0, r.out);
    const puppeteer = (await import('puppeteer-core')).default;
    const browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 1400, height: 900 });
      const problems = [];
      page.on('console', (m) => ['error', 'warn'].includes(m.type()) && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('requestfailed', (q) => problems.push(`request failed: ${q.url()}`));
      await page.goto(`file://${join(site, 'index.html')}`, { waitUntil: 'load' });
      const cells = await page.$$eval('section', (ss) =>
        ss.map((s) => ({
          cell: s.dataset.cell,
          charts: [...s.querySelectorAll('svg.chart')].map((svg) => {
            const box = svg.getBoundingClientRect();
            const path = svg.querySelector('path.line');
            return {
              metric: svg.dataset.metric,
              w: box.width,
              h: box.height,
              dates: [...svg.querySelectorAll('text.date')].map((t) => t.textContent),
              levels: svg.querySelectorAll('line.level').length,
              bottom: svg.querySelectorAll('text')[1]?.textContent,
              segments: (path?.getAttribute('d').match(/L/g) ?? []).length,
              pathLength: path?.getTotalLength() ?? 0,
            };
          }),
          changePoints: [...s.querySelectorAll('svg.chart[data-metric="p99"] g.change-point')].map((g) => ({
            commit: g.dataset.commit,
            href: g.closest('a')?.getAttribute('href') ?? null,
            visible: g.getBoundingClientRect().height > 0,
          })),
        })),
      );
      assert.deepEqual(problems, [], 'no console errors, no failed requests');
      assert.deepEqual(cells.map((c) => c.cell).sort(), ['haproxy-ingress/default/pod-kill', 'traefik/default/steady']);
      for (const c of cells) {
        assert.deepEqual(
          c.charts.map((x) => x.metric),
          ['p99', 'p99.99', 'errors'],
        );
        for (const x of c.charts) {
          // The width the page has (1,400 px less its margins), not a fixed 720 px.
          assert.ok(x.w > 1300 && x.h > 50 && x.segments === 49 && x.pathLength > 100, JSON.stringify(x));
          assert.deepEqual(x.dates, [
            '2026-01-01',
            '2026-01-11',
            '2026-01-21',
            '2026-01-30',
            '2026-02-09',
            '2026-02-19',
          ]);
        }
        assert.equal(c.charts.find((x) => x.metric === 'errors').bottom, '0.00', 'the error rate starts at 0');
      }
      const levels = Object.fromEntries(cells.map((c) => [c.cell, c.charts.find((x) => x.metric === 'p99').levels]));
      assert.deepEqual(
        levels,
        { 'traefik/default/steady': 2, 'haproxy-ingress/default/pod-kill': 1 },
        'a level per stretch',
      );
      const traefik = cells.find((c) => c.cell === 'traefik/default/steady');
      assert.deepEqual(traefik.changePoints, [
        { commit: 'a00001e', href: 'https://github.com/acme/ingress/compare/a00001d...a00001e', visible: true },
      ]);
      assert.deepEqual(cells.find((c) => c.cell !== 'traefik/default/steady').changePoints, []);
      // What a person sees: the red of the change point's line in the screenshot, in the
      // column of run 31 of 50 (index 30), and nowhere else across the chart.
      const svg = await page.$('section[data-cell="traefik/default/steady"] svg.chart[data-metric="p99"]');
      const box = await svg.boundingBox();
      const shot = Buffer.from(await svg.screenshot({ encoding: 'binary' })).toString('base64');
      const reader = await browser.newPage();
      const redColumns = await reader.evaluate(async (png) => {
        const img = new globalThis.Image(); // in the browser
        img.src = `data:image/png;base64,${png}`;
        await img.decode();
        const canvas = Object.assign(globalThis.document.createElement('canvas'), {
          width: img.width,
          height: img.height,
        });
        const g = canvas.getContext('2d');
        g.drawImage(img, 0, 0);
        const { data } = g.getImageData(0, 0, img.width, img.height);
        const cols = [];
        for (let x = 0; x < img.width; x++) {
          let red = 0;
          for (let y = 0; y < img.height; y++) {
            const i = 4 * (y * img.width + x);
            if (data[i] > 180 && data[i + 1] < 90 && data[i + 2] < 90) red++;
          }
          if (red > img.height / 5) cols.push(x);
        }
        return { cols, width: img.width };
      }, shot);
      const scale = redColumns.width / box.width;
      const expected = (box.width * (56 + ((1200 - 56 - 12) * 30) / 49)) / 1200;
      assert.ok(redColumns.cols.length > 0, 'a red line is visible');
      for (const x of redColumns.cols)
        assert.ok(
          Math.abs(x / scale - expected) <= 3,
          `red at x=${x / scale}, the change point belongs at ${expected}`,
        );
    } finally {
      await browser.close();
    }
  },
);

test('history page: nothing from the store becomes markup unescaped, and only https links are kept', async () => {
  const { historyPage } = await import('../../src/history/page.js');
  const rec = (i) => ({
    commit: `<img src=x onerror=alert(1)>${i}`,
    time: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
    run: 'javascript:alert(1)',
    latencyMs: { p99: 1 + i, 'p99.99': 2 + i },
    errors: { rate: 0 },
  });
  const html = historyPage([{ profile: 'p', cell: 'a/b/<script>', records: [rec(0), rec(1)] }], {
    repoUrl: 'javascript:x',
  });
  assert.doesNotMatch(html, /<img|<script>|javascript:/);
  assert.match(html, /&lt;script&gt;/);
});

test('history report --png: a gnuplot chart per cell and a job summary naming the planted change point', async () => {
  const site = scratchDir('tg-site-png-');
  const r = await runCli([
    'history',
    'report',
    '--store',
    store(),
    '--site',
    site,
    '--png',
    '--pages-url',
    'https://acme.github.io/ingress',
  ]);
  assert.equal(r.code, 0, r.out);
  for (const i of [0, 1]) {
    const png = readFileSync(join(site, 'png', `cell-${i}`, 'history.png'));
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
  }
  const md = readFileSync(join(site, 'summary.md'), 'utf8');
  // The planted ×1.4 step at run 31 (commit a00001e).
  assert.match(md, /traefik\/default\/steady` \| 50 \| .*p99 [\d.]+ ms → [\d.]+ ms \(worse\) at `a00001e`/);
  assert.match(md, /!\[traefik\/default\/steady\]\(https:\/\/acme\.github\.io\/ingress\/png\/cell-\d\/history\.png\)/);
  const gp = readFileSync(join(site, 'png', 'cell-0', 'history.png.gp'), 'utf8');
  assert.doesNotMatch(gp, /a00001e/, 'nothing from the store in the script but numbers');
});
