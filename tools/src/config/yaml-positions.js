// Maps a JSON path inside a parsed YAML document back to file:line:col, so that
// every config error can point at the exact place a user has to edit.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

export function parseWithPositions(text) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  return { doc, lineCounter };
}

/** path: array of keys/indices. keyOf: point at the key of the last element instead of its value. */
export function positionOf(doc, lineCounter, path, { keyOf = false } = {}) {
  let node = doc.contents;
  let last = node;
  for (let i = 0; i < path.length; i++) {
    const step = path[i];
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && keyText(p.key) === String(step));
      if (!pair) break;
      last = keyOf && i === path.length - 1 ? pair.key : (pair.value ?? pair.key);
      node = pair.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(step)];
      if (!item) break;
      last = item;
      node = item;
    } else break;
  }
  const offset = last?.range?.[0] ?? 0;
  return lineCounter.linePos(offset);
}

function keyText(key) {
  return isScalar(key) ? String(key.value) : String(key);
}
