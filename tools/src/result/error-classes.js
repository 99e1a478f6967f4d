// Error classes the field reports count: timeouts, refused and reset connections,
// other transport failures, 502/503/504/other 5xx, 4xx. From k6's error_code and status.
export const ERROR_CLASSES = Object.freeze([
  'timeout',
  'refused',
  'reset',
  'transport',
  'http502',
  'http503',
  'http504',
  'http5xx',
  'http4xx',
]);
