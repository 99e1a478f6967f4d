// --json: stdout carries one machine-readable document and nothing else; every line a
// command prints for people goes to stderr meanwhile. Exit codes do not change.
export const jsonOption = { json: { type: 'boolean', default: false } };

/**
 * Runs `fn` (returning { code, doc }) with console.log sent to stderr when `json` is set,
 * then prints `doc` alone on stdout (no document: a bad input or an infrastructure error
 * before one existed — stdout stays empty, the error is on stderr). Without `json`, just
 * `fn`'s code.
 */
export async function withJson(json, fn) {
  if (!json) return (await fn()).code;
  const log = console.log;
  console.log = (...a) => console.error(...a);
  let result;
  try {
    result = await fn();
  } finally {
    console.log = log;
  }
  if (result.doc !== undefined && result.doc !== null) console.log(JSON.stringify(result.doc, null, 2));
  return result.code;
}
