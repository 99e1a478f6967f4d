// k6's own summary (handleSummary JSON): the request count it saw, against which the
// raw output is checked for completeness (ingest --summary, several runners).
export function k6RequestCount(summary) {
  return summary?.metrics?.http_reqs?.values?.count;
}
