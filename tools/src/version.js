import { readFileSync } from 'node:fs';

export const TAILGATE_VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
export const RESULT_SCHEMA_VERSION = 1;
export const BASELINE_SCHEMA_VERSION = 1;
