// The verdicts a cell can have (schemas/verdict.schema.json names the same).
export const VERDICTS = Object.freeze([
  'pass',
  'improvement',
  'regression',
  'inconclusive',
  'input-error',
  'infra-error',
  'no-baseline',
]);
