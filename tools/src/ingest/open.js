// A load tool's output as a byte stream, gunzipped when it starts with gzip's magic: k6
// writes .json.gz, and Vegeta's or fortio's files are often kept compressed too.
import { createReadStream, openSync, readSync, closeSync, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { InputError } from '../errors.js';

export function openStream(file, what) {
  let fd;
  try {
    if (!statSync(file).isFile()) throw Object.assign(new Error(), { code: 'not a regular file' });
    fd = openSync(file, 'r');
  } catch (err) {
    throw new InputError(`${file}: cannot open ${what} (${err.code})`);
  }
  const magic = Buffer.alloc(2);
  readSync(fd, magic, 0, 2, 0);
  closeSync(fd);
  // 256 KiB chunks: larger ones raised peak RSS by ~35 MB (make perf) for no speed.
  const raw = createReadStream(file, { highWaterMark: 1 << 18 });
  const gz = magic[0] === 0x1f && magic[1] === 0x8b;
  const out = gz ? raw.pipe(createGunzip({ chunkSize: 1 << 18 })) : raw;
  if (gz) raw.on('error', (e) => out.destroy(e));
  return out;
}

/** Every line of the stream (without its newline) to `onLine(text, lineNo)`; lines over maxLine are refused. */
export async function forEachLine(file, what, maxLine, onLine) {
  let rest = null;
  let lineNo = 0;
  const too = () => new InputError(`${file}:${lineNo + 1}: line longer than ${maxLine} bytes: not ${what}`);
  try {
    for await (const chunk of openStream(file, what)) {
      const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
      let s = 0;
      for (let e = buf.indexOf(10, s); e >= 0; e = buf.indexOf(10, s)) {
        if (e - s > maxLine) throw too();
        lineNo++;
        onLine(buf.toString('utf8', s, e), lineNo);
        s = e + 1;
      }
      rest = s < buf.length ? buf.subarray(s) : null;
      if (rest && rest.length > maxLine) throw too();
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`${file}: cannot read ${what} after line ${lineNo}: ${err.message}`);
  }
  // A last line without a newline is kept: tools that write a whole file end it either way.
  if (rest?.length) onLine(rest.toString('utf8'), ++lineNo);
  return lineNo;
}
