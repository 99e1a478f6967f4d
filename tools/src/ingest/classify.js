// Which error class a k6 sample is in, from its error_code and status (the classes
// themselves: result/error-classes.js).
import { ERROR_CLASSES } from '../result/error-classes.js';

// k6 error codes (k6 docs, "Error codes"): 1050 request timeout, 1211 dial timeout,
// 1212 connection refused, 1220 reset by peer, 1201 broken pipe on write.
const BY_CODE = new Map([
  ['1050', 'timeout'],
  ['1211', 'timeout'],
  ['1201', 'reset'],
  ['1212', 'refused'],
  ['1220', 'reset'],
]);

/** Returns an error class, or null for a success. status and errorCode are strings as k6 writes them. */
export function classify(status, errorCode, errorText = '') {
  if (status === '0' || status === '' || status === undefined) {
    if (errorCode && BY_CODE.has(errorCode)) return BY_CODE.get(errorCode);
    if (/connection refused/i.test(errorText)) return 'refused';
    if (/EOF|reset|broken pipe/i.test(errorText)) return 'reset';
    if (/timeout/i.test(errorText)) return 'timeout';
    return 'transport';
  }
  const s = Number(status);
  if (s === 502) return 'http502';
  if (s === 503) return 'http503';
  if (s === 504) return 'http504';
  if (s >= 500) return 'http5xx';
  if (s >= 400) return 'http4xx';
  return null;
}

export function emptyCounts() {
  return Object.fromEntries(ERROR_CLASSES.map((c) => [c, 0]));
}
