// What a duet's head changes in the data plane, as the run wrote it beside the head's
// results: moved with them by tools/ci/duet-cell.sh, so the gate job's verdict and
// comment lead with it too.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readTextFile } from './read.js';

// It comes from a PR's artifacts: read bounded, kept to strings of a sane length, or left
// out (it is context for the comment, never evidence for the verdict).
export const DUET_CHANGE_FILE = 'duet-change.json';
const DUET_CHANGE_LIMITS = { bytes: 64 << 10, changes: 50, chars: 300 };

// The duet-change documents beside the head's results (its folder, or one folder down:
// duet-cell.sh moves each run into its own), parsed, in the order readers try them.
function* duetChangeDocs(headDir) {
  const files = [join(headDir, DUET_CHANGE_FILE)];
  try {
    for (const d of readdirSync(headDir, { withFileTypes: true }).slice(0, 1000))
      if (d.isDirectory()) files.push(join(headDir, d.name, DUET_CHANGE_FILE));
  } catch {
    return;
  }
  for (const f of files) {
    if (!existsSync(f)) continue;
    let doc;
    try {
      doc = JSON.parse(readTextFile(f, { maxBytes: DUET_CHANGE_LIMITS.bytes }));
    } catch {
      continue;
    }
    if (doc?.kind === 'tailgate.duet-change') yield doc;
  }
}

const ok = (x) => typeof x === 'string' && x.length <= DUET_CHANGE_LIMITS.chars;

export function readDuetChange(headDir) {
  for (const doc of duetChangeDocs(headDir)) {
    const changes = Array.isArray(doc.changes) ? doc.changes : null;
    if (!changes || changes.length > DUET_CHANGE_LIMITS.changes) continue;
    if (changes.every((c) => ok(c?.directive) && ok(c?.before) && ok(c?.after)))
      return changes.map(({ directive, before, after }) => ({ directive, before, after }));
  }
  return null;
}

/** What a PR's duet changed in the workload both sides ran (strings), or null. */
export function readWorkloadChange(headDir) {
  for (const doc of duetChangeDocs(headDir)) {
    const w = doc.workload;
    if (Array.isArray(w) && w.length <= DUET_CHANGE_LIMITS.changes && w.every(ok)) return w;
  }
  return null;
}

/** The cells a run loaded one side at a time for fairness, [{cell, why}], from its plan. */
export function oneAtATimeCells(plan) {
  const seen = new Map();
  for (const c of plan.cells) if (c.oneAtATime && !seen.has(c.key)) seen.set(c.key, String(c.oneAtATime).slice(0, 300));
  return [...seen].map(([cell, why]) => ({ cell, why }));
}

/** The same, as the run wrote it beside the head's results, or null. */
export function readOneAtATime(headDir) {
  for (const doc of duetChangeDocs(headDir)) {
    const list = doc.oneAtATime;
    if (
      Array.isArray(list) &&
      list.length <= DUET_CHANGE_LIMITS.changes &&
      list.every((x) => ok(x?.cell) && ok(x?.why))
    )
      return list.map(({ cell, why }) => ({ cell, why }));
  }
  return null;
}
