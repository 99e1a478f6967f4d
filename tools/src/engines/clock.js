// RFC 3339 timestamps as k6 and Vegeta write them (nanoseconds, a zone), parsed fast.
import { InputError } from '../errors.js';

// RFC 3339 timestamps with nanoseconds: the whole-second part is parsed once per
// distinct second and cached; the fraction is added as a number.
export class Clock {
  constructor() {
    this.key = '';
    this.base = 0;
  }

  parse(text, file, lineNo) {
    const dot = text.indexOf('.', 19);
    const zoneAt = dot < 0 ? 19 : findZone(text, dot);
    const key = text.slice(0, 19) + text.slice(zoneAt);
    if (key !== this.key) {
      const base = Date.parse(key);
      if (Number.isNaN(base)) throw new InputError(`${file}:${lineNo}: bad timestamp (expected RFC 3339)`);
      this.key = key;
      this.base = base;
    }
    return dot < 0 ? this.base : this.base + Number(`0${text.slice(dot, zoneAt)}`) * 1000;
  }
}

function findZone(text, from) {
  for (let i = from + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return i;
  }
  return text.length;
}
