// A fact of the config (validate reports it at the matrix's line) that plan also checks
// before it makes a cell.
// How large a matrix may grow, checked before any cell is made (validate says the same
// at the matrix's line). The largest in our bench.yaml is 12 cells × 10 repetitions; a
// comment lists 900 cells within GitHub's size limit; 10,000 measurements of the
// shortest sensible cell (30 s) are 4 days of runner time. A typo or a generated file
// beyond these would otherwise allocate a cell object per combination — millions.
export const MATRIX_LIMITS = Object.freeze({ cells: 1000, measurements: 10_000 });

/** Problems with the size of a matrix: [{field, message}], empty when it fits. */
export function matrixSizeProblems({ controllers, tunings, scenarios, repetitions = 1 }) {
  const cells = controllers.length * tunings.length * scenarios.length;
  const shape = `${controllers.length} controllers × ${tunings.length} tunings × ${scenarios.length} scenarios`;
  if (cells > MATRIX_LIMITS.cells)
    return [
      {
        field: 'scenarios',
        message: `${shape} = ${cells} cells, over the limit of ${MATRIX_LIMITS.cells}: split it into several matrices (a CI job each)`,
      },
    ];
  if (cells * repetitions > MATRIX_LIMITS.measurements)
    return [
      {
        field: 'repetitions',
        message: `${shape} × ${repetitions} repetitions = ${cells * repetitions} measurements, over the limit of ${MATRIX_LIMITS.measurements}: at most ${Math.floor(MATRIX_LIMITS.measurements / cells)} repetitions for ${cells} cells, or fewer cells`,
      },
    ];
  return [];
}

// Sequential pairs (a duet's maxRepetitions): the share of α each interim look may spend
// on stopping a cell for a regression (Haybittle–Peto; compare/sequential-gate.js).
export const SEQUENTIAL_LOOK_P = 0.001;

// The one-sided level of an interim look's futility bound: a cell stops as clearly passing
// when each blocking test's upper bound at this level is under its threshold
// (compare/sequential.js; the failover test's too, compare/failover.js).
export const SEQUENTIAL_FUTILITY_LEVEL = 0.8;
