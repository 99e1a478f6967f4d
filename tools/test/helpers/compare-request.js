// What `tailgate gate` asks of compare, as a person would type it.
import { options } from '../../src/cli/compare.js';

/** A compare request's options that are not compare's defaults: the flags a person would type. */
export const typed = (req) =>
  Object.fromEntries(Object.entries(req).filter(([k, v]) => v !== options[k]?.default && v !== undefined));
