// The load tools whose output `tailgate ingest --format` reads: one reader each, all
// handing request samples to the same aggregate (ingest.js). Adding a tool = one reader
// file and one line here.
import { readK6Output } from './k6-stream.js';
import { readVegeta } from './vegeta.js';
import { readFortio } from './fortio.js';

export const FORMATS = Object.freeze({
  k6: { read: readK6Output, what: "k6's --out json (.gz)" },
  vegeta: { read: readVegeta, what: 'vegeta encode --to json or --to csv (.gz)' },
  fortio: { read: readFortio, what: 'fortio load -json' },
});
