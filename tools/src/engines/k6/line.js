// One http_req_duration line of k6's --out json, read from its bytes where it has the
// shape k6 writes: no string of the whole line, the time's second parsed once per
// second, the latency and the time's fraction read as digits, and the tags — all that
// follows the latency — found in one pass, or, when those bytes are a recent line's
// (a run has a handful of tag sets: phase × side × status), taken from it. Anything
// else — another shape, a non-ASCII byte, an out-of-range value — returns null, and
// read.js reads the line as text (its checks and errors). Both give the same sample:
// a decimal of at most 15 digits is an exact integer over an exact power of ten, and
// IEEE division rounds that quotient as Number() rounds the decimal text.

const PREFIX_LENGTH = '{"metric":"http_req_duration","type":"Point","data":{"time":"'.length;
const VALUE = Buffer.from(',"value":');
const MAX_DIGITS = 15;
const POW10 = Array.from({ length: MAX_DIGITS + 1 }, (_, i) => 10 ** i);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
// The tags the sample carries, as read.js's tag() finds them: the first `"key":"`
// after the value, wherever it stands.
const KEYS = ['status', 'error_code', 'error', 'phase', 'step', 'side'].map((k) => Buffer.from(`${k}":"`));
const [STATUS, ERROR_CODE, ERROR, PHASE, STEP, SIDE] = [0, 1, 2, 3, 4, 5];
const isDigit = (c) => c >= 0x30 && c <= 0x39;
// A run's tag sets: warm-up and measure, two sides of a duet, a few statuses and errors.
const SEEN = 8;
const MAX_SEEN_BYTES = 512;

// read.js's rule for the status tag: at most three digits.
function httpCode(text) {
  if (text.length > 3) return false;
  for (let i = 0; i < text.length; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

export class K6LineReader {
  constructor(clock) {
    this.clock = clock; // the text path's clock: a new second is parsed (and refused) there
    this.second = Buffer.alloc(64); // the time's bytes up to its fraction, then its zone
    this.known = false; // a second is cached
    this.zoneLength = 0;
    this.base = 0;
    this.at = new Int32Array(KEYS.length);
    // Recent tag bytes and what they read as, replaced in turn.
    this.seen = Array.from({ length: SEEN }, () => ({ bytes: Buffer.alloc(MAX_SEEN_BYTES), length: -1, tags: null }));
    this.next = 0;
  }

  /** The sample of the line buf[s, e), or null: read it as text. */
  request(buf, s, e) {
    const t0 = s + PREFIX_LENGTH;
    let timeEnd = t0;
    while (timeEnd < e && buf[timeEnd] !== QUOTE) timeEnd++;
    if (timeEnd + VALUE.length >= e) return null;
    const ts = this.time(buf, t0, timeEnd);
    if (ts === null) return null;
    for (let i = 0; i < VALUE.length; i++) if (buf[timeEnd + 1 + i] !== VALUE[i]) return null;
    // The latency: digits, a point, digits, then the comma the text path ends it at.
    let p = timeEnd + 1 + VALUE.length;
    let digits = 0;
    let n = 0;
    let fraction = -1;
    for (; p < e; p++) {
      const c = buf[p];
      if (isDigit(c)) {
        n = n * 10 + (c - 0x30);
        digits++;
        if (fraction >= 0) fraction++;
      } else if (c === 0x2e && fraction < 0 && digits > 0) fraction = 0;
      else break;
    }
    if (p >= e || buf[p] !== 0x2c || digits === 0 || digits > MAX_DIGITS || fraction === 0) return null;
    const ms = fraction > 0 ? n / POW10[fraction] : n;
    if (ms > 3_600_000) return null; // the text path refuses it
    const t = this.tags(buf, p, e);
    if (t === null) return null;
    const { status, errorCode, error, phase, step, side } = t;
    return { ts, ms, status, errorCode, error, phase, step, side };
  }

  // The tags of buf[from, e) (null: read the line as text): a recent line's when its bytes
  // are these.
  tags(buf, from, e) {
    const n = e - from;
    for (let k = 0; k < SEEN; k++) {
      const seen = this.seen[k];
      if (seen.length !== n) continue;
      const bytes = seen.bytes;
      let i = 0;
      while (i < n && buf[from + i] === bytes[i]) i++;
      if (i === n) return seen.tags;
    }
    const tags = this.readTags(buf, from, e);
    if (tags !== null && n <= MAX_SEEN_BYTES) {
      const seen = this.seen[this.next];
      this.next = (this.next + 1) % SEEN;
      buf.copy(seen.bytes, 0, from, e);
      seen.length = n;
      seen.tags = tags;
    }
    return tags;
  }

  readTags(buf, from, e) {
    this.findTags(buf, from, e);
    const status = this.value(buf, STATUS, e);
    if (status === null || (status !== undefined && !httpCode(status))) return null; // refused as text
    const errorCode = this.value(buf, ERROR_CODE, e);
    const error = this.value(buf, ERROR, e);
    const phase = this.value(buf, PHASE, e);
    const step = this.value(buf, STEP, e);
    const side = this.value(buf, SIDE, e);
    if (errorCode === null || error === null || phase === null || step === null || side === null) return null;
    return { status, errorCode, error, phase, step, side };
  }

  // Epoch ms of the time buf[t0, end): RFC 3339 with a fraction of at most 15 digits.
  time(buf, t0, end) {
    const dot = t0 + 19;
    if (end - t0 < 20 || buf[dot] !== 0x2e) return null;
    let zone = dot + 1;
    let frac = 0;
    while (zone < end && isDigit(buf[zone])) frac = frac * 10 + (buf[zone++] - 0x30);
    const fractionDigits = zone - dot - 1;
    const zoneLength = end - zone;
    if (fractionDigits > MAX_DIGITS || 19 + zoneLength > this.second.length) return null;
    if (!this.sameSecond(buf, t0, zone, zoneLength)) {
      for (let i = t0; i < end; i++) if (buf[i] > 0x7f) return null;
      try {
        this.clock.parse(buf.toString('latin1', t0, end));
      } catch {
        return null; // a bad time: the text path names the file and line
      }
      buf.copy(this.second, 0, t0, dot);
      buf.copy(this.second, 19, zone, end);
      this.known = true;
      this.zoneLength = zoneLength;
      this.base = this.clock.base;
    }
    return this.base + (frac / POW10[fractionDigits]) * 1000;
  }

  sameSecond(buf, t0, zone, zoneLength) {
    if (!this.known || this.zoneLength !== zoneLength) return false;
    for (let i = 18; i >= 0; i--) if (buf[t0 + i] !== this.second[i]) return false;
    for (let i = 0; i < zoneLength; i++) if (buf[zone + i] !== this.second[19 + i]) return false;
    return true;
  }

  // Where each key's value starts (-1: absent): at every quote from `from`, the keys it
  // could open.
  findTags(buf, from, e) {
    const at = this.at;
    at.fill(-1);
    for (let q = from; q < e; q++) {
      if (buf[q] !== QUOTE) continue;
      const c = buf[q + 1];
      const first = c === 0x73 ? STATUS : c === 0x65 ? ERROR_CODE : c === 0x70 ? PHASE : -1;
      if (first < 0) continue;
      for (let k = first; k < KEYS.length; k++) {
        if (at[k] >= 0 || KEYS[k][0] !== c) continue;
        const key = KEYS[k];
        if (q + 1 + key.length > e) continue;
        let i = 1;
        while (i < key.length && buf[q + 1 + i] === key[i]) i++;
        if (i === key.length) at[k] = q + 1 + key.length;
      }
    }
  }

  // The key's value as the text path slices it (undefined: absent; null: read as text).
  value(buf, k, e) {
    const start = this.at[k];
    if (start < 0) return undefined;
    let end = start;
    for (;;) {
      while (end < e && buf[end] !== QUOTE) end++;
      if (end >= e) return null;
      if (end === start || buf[end - 1] !== BACKSLASH) break;
      end++;
    }
    let ascii = true;
    for (let i = start; i < end; i++) if (buf[i] > 0x7f) ascii = false;
    return buf.toString(ascii ? 'latin1' : 'utf8', start, end);
  }
}
