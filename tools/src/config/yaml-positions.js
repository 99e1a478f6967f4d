// Maps a JSON path inside a parsed YAML document back to file:line:col, so that
// every config error can point at the exact place a user has to edit.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

export function parseWithPositions(text) {
  const lineCounter = new LineCounter();
  // The library's own unique-key check compares every key with every other (minutes
  // for a generated map of 60k keys); the same rule is checked here with a set.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  if (!doc.errors.length) doc.errors.push(...duplicateKeys(doc.contents));
  return { doc, lineCounter };
}

function duplicateKeys(root) {
  const errors = [];
  const stack = [root];
  while (stack.length && errors.length < 50) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set();
      for (const p of node.items) {
        const k = keyText(p.key);
        if (seen.has(k)) errors.push({ pos: [p.key?.range?.[0] ?? 0], message: 'Map keys must be unique' });
        seen.add(k);
        stack.push(p.value);
      }
    } else if (isSeq(node)) stack.push(...node.items);
  }
  return errors;
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
