// One cell's verdict: a comparison with a single cell (gate.js decides every cell of
// a comparison together; with one cell the family is that cell's tests).
import { gateCells } from './gate.js';

export function compareCell({ cell, base, head, gate, mode = 'baseline', allowMachineMismatch = false }) {
  return gateCells([{ cell, base, head }], gate, { mode, allowMachineMismatch }).cells[0];
}
