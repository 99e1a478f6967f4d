import { readFileSync } from 'node:fs';

export const TAILGATE_VERSION = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
).version;
export const RESULT_SCHEMA_VERSION = 1;
export const BASELINE_SCHEMA_VERSION = 1;

/** Pinned versions of outside tools (tools/versions.json, the one place they live). */
export const PINS = Object.freeze(JSON.parse(readFileSync(new URL('../versions.json', import.meta.url), 'utf8')));
