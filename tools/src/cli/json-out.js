// --json: stdout carries one machine-readable document and nothing else; every line a
// command prints for people goes to stderr meanwhile. Exit codes do not change. No global
// is swapped: a command prints through the io it is handed.
export const jsonOption = { json: { type: 'boolean', default: false } };

/**
 * A command's io with both writers: `log` (lines for people, stdout) and `err` (stderr).
 * The console is looked up at each call, so a test that captures it still sees every line.
 */
export function writers(io = {}) {
  return {
    ...io,
    log: io.log ?? ((...a) => console.log(...a)),
    err: io.err ?? ((...a) => console.error(...a)),
  };
}

/**
 * Runs `fn(io)` (returning { code, doc }). With `json`, fn's io.log is stderr and `doc` is
 * printed alone, once, through the caller's log (no document: a bad input or an
 * infrastructure error before one existed — stdout stays empty, the error is on stderr).
 * Without `json`, fn prints through the caller's log and only its code is returned.
 */
export async function withJson(json, io, fn) {
  const out = writers(io);
  if (!json) return (await fn(out)).code;
  const result = await fn({ ...out, log: out.err });
  if (result.doc !== undefined && result.doc !== null) out.log(JSON.stringify(result.doc, null, 2));
  return result.code;
}
