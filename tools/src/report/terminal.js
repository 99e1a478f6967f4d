// The verdict as a plain table for terminals and logs.
import { delta, metric, ms } from './format.js';

export function renderTerminal(doc) {
  const rows = [['cell', 'verdict', 'p50', 'p99', 'Δp99', 'p99.99', 'Δp99.99', 'errors', 'base errors']];
  for (const c of doc.cells) {
    const h = c.head ?? {};
    rows.push([
      c.cell,
      // A first look awaiting its round is inconclusive in the verdict, pending to a reader.
      c.awaiting === 'confirmation' ? 'pending' : c.verdict,
      ms(h.p50),
      ms(h.p99),
      delta(metric(c, 'p99')),
      `${ms(h['p99.99'])}${h.p99_99Reliable === false ? '*' : ''}`,
      delta(metric(c, 'p99.99')),
      String(h.errors ?? '–'),
      String(c.base?.errors ?? '–'),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r) =>
    r
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const out = [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
  const notes = doc.cells.flatMap((c) => [
    ...(c.reasons ?? []).map((r) => `  ${c.cell}: ${r}`),
    ...(c.warnings ?? []).map((w) => `  ${c.cell}: warning: ${w}`),
    ...(c.fix ? [`  ${c.cell}: to record one: ${c.fix}`] : []),
  ]);
  if (notes.length) out.push('', ...notes);
  if (doc.refused) out.push('', `  nothing gated: ${doc.refused}`);
  if (doc.cells.some((c) => c.head?.p99_99Reliable === false))
    out.push('', '  * fewer than 10 samples beyond p99.99: shown, never gated on alone');
  const awaiting = doc.cells.filter((c) => c.awaiting === 'confirmation').length;
  out.push(
    '',
    `verdict: ${doc.overall.toUpperCase()} (${Object.entries(doc.counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(
        ', ',
      )}${awaiting ? `; ${awaiting} of them awaiting a confirmation round, not the verdict yet` : ''}) — exit ${doc.exitCode}`,
  );
  return out.join('\n');
}
