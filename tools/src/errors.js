// One exit-code table for the whole CLI; README documents the same numbers.
export const EXIT = Object.freeze({
  OK: 0,
  REGRESSION: 1,
  BAD_INPUT: 2,
  INCONCLUSIVE: 3,
  INFRA: 4,
});

// Errors carry their exit code so the CLI needs no mapping table of its own.
export class TailgateError extends Error {
  constructor(message, { exitCode = EXIT.BAD_INPUT, details = [] } = {}) {
    super(message);
    this.name = this.constructor.name;
    this.exitCode = exitCode;
    this.details = details;
  }
}

// The user gave us something we cannot use: a file, a flag, a value.
export class InputError extends TailgateError {
  constructor(message, opts = {}) {
    super(message, { ...opts, exitCode: EXIT.BAD_INPUT });
  }
}

// A tool, process or cluster failed under us: never the change's fault.
export class InfraError extends TailgateError {
  constructor(message, opts = {}) {
    super(message, { ...opts, exitCode: EXIT.INFRA });
  }
}

// One of several k6 runners of a cell failed or disagrees: the cell is inconclusive, naming it.
export class RunnerProblem extends TailgateError {
  constructor(message, details = []) {
    super(message, { details });
    this.inconclusive = true;
  }
}
