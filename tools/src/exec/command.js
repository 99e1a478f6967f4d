// Commands are kept as argv arrays and shown quoted, so what a dry run prints and
// what an error message shows can be pasted back into a shell as is.
export function quote(arg) {
  const s = String(arg);
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function commandLine(argv, env = {}) {
  const prefix = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`);
  return [...prefix, ...argv.map(quote)].join(' ');
}
