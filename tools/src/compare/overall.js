// Cell verdicts -> one overall verdict and the CLI's exit code. A regression
// outranks everything (it is a finding); then the PR's own bad input (a values file the
// chart refuses: the author's to fix), infra errors, then missing evidence.
import { EXIT } from '../errors.js';

const RANK = ['regression', 'input-error', 'infra-error', 'inconclusive', 'no-baseline', 'improvement', 'pass'];
const CODE = {
  regression: EXIT.REGRESSION,
  'input-error': EXIT.BAD_INPUT,
  'infra-error': EXIT.INFRA,
  inconclusive: EXIT.INCONCLUSIVE,
  'no-baseline': EXIT.INCONCLUSIVE,
  improvement: EXIT.OK,
  pass: EXIT.OK,
};

export function overallVerdict(cells) {
  if (!cells.length) return 'inconclusive';
  return RANK.find((v) => cells.some((c) => c.verdict === v));
}

export function exitCodeFor(verdict) {
  return CODE[verdict];
}

export function counts(cells) {
  const out = {};
  for (const c of cells) out[c.verdict] = (out[c.verdict] ?? 0) + 1;
  return out;
}
