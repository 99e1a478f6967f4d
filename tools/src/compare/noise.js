// How noisy is a metric in this cell? With 3 pairs a cell's own variance has 2
// degrees of freedom: so uncertain that a test at 5% needs a ×1.9 change to fire.
// The cells of one PR ran on the same machine in the same job, so their noise
// levels are related: each cell's variance is moderated towards the others'
// (the empirical-Bayes moderated t of limma, Smyth 2004): a weighted mean of its
// own variance and the pooled variance of the other cells, with the degrees of
// freedom of both. The prior's weight is capped, so a cell that is genuinely
// noisier than the rest (churn vs steady) still speaks mostly for itself. A cell
// alone (or whose peers estimate nothing) is moderated towards `fallback`: the
// run-to-run noise assumed for the machine (gate.assumedRunCv, measured by make perf).

export const PRIOR_DF_CAP = 3;

/**
 * evidences: [{ ownVar, ownDf }] of one metric across the cells of a comparison.
 * Returns for each: { var, df, pooledFrom } — the moderated variance and its df.
 */
export function moderate(evidences, { cap = PRIOR_DF_CAP, fallback = null } = {}) {
  return evidences.map((e, i) => {
    let sum = 0;
    let df = 0;
    evidences.forEach((o, j) => {
      if (j === i || !(o.ownDf > 0) || !Number.isFinite(o.ownVar)) return;
      sum += o.ownDf * o.ownVar;
      df += o.ownDf;
    });
    const own = e.ownDf > 0 ? e.ownVar : 0;
    const ownDf = e.ownDf > 0 ? e.ownDf : 0;
    if (df === 0 && fallback) {
      if (!ownDf) return { var: null, df: 0, pooledFrom: 0 };
      return {
        var: (ownDf * own + cap * fallback) / (ownDf + cap),
        df: ownDf + cap,
        pooledFrom: 0,
        assumedPrior: true,
      };
    }
    if (df === 0) return { var: ownDf ? own : null, df: ownDf, pooledFrom: 0 };
    const priorVar = sum / df;
    const priorDf = Math.min(df, cap);
    return { var: (ownDf * own + priorDf * priorVar) / (ownDf + priorDf), df: ownDf + priorDf, pooledFrom: df };
  });
}
