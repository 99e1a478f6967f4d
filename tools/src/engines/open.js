// A load tool's output as a byte stream, gunzipped when it starts with gzip's magic: k6
// writes .json.gz, and Vegeta's or fortio's files are often kept compressed too.
import { createReadStream, openSync, readSync, closeSync, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { InputError } from '../errors.js';

// Deflate inflates up to ~1030×, so a few kilobytes of gzip can be gigabytes of blank
// lines, and every reader's work follows the bytes it is handed. Load tools' outputs
// inflate 20-40× (k6's JSON at gzip's fastest and best levels, Vegeta's JSON and CSV);
// past the first 16 MiB, more than 200× is refused. Node's gunzip reads every member of a
// multi-member file, all counted together: no member, however many, gets past the bound.
export const INFLATE_LIMITS = Object.freeze({ ratio: 200, freeBytes: 16 << 20 });

/**
 * The output's bytes, chunk by chunk: gunzipped when it starts with gzip's magic, and then
 * refused once it has inflated past INFLATE_LIMITS of the compressed bytes read.
 */
export async function* chunksOf(file, what) {
  const { stream, gunzip } = openStream(file, what);
  let inflated = 0;
  for await (const chunk of stream) {
    if (gunzip) {
      inflated += chunk.length;
      const read = gunzip.bytesWritten;
      if (inflated > INFLATE_LIMITS.freeBytes + INFLATE_LIMITS.ratio * read)
        throw new InputError(
          `${file}: inflates to more than ${INFLATE_LIMITS.ratio}× its gzip bytes past the first ${INFLATE_LIMITS.freeBytes} (${inflated} bytes from ${read}): not ${what}`,
        );
    }
    yield chunk;
  }
}

function openStream(file, what) {
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
  if (!(magic[0] === 0x1f && magic[1] === 0x8b)) return { stream: raw, gunzip: null };
  const gunzip = raw.pipe(createGunzip({ chunkSize: 1 << 18 }));
  raw.on('error', (e) => gunzip.destroy(e));
  return { stream: gunzip, gunzip };
}

/** Every line of the stream (without its newline) to `onLine(text, lineNo)`; lines over maxLine are refused. */
export async function forEachLine(file, what, maxLine, onLine) {
  let rest = null;
  let lineNo = 0;
  const too = () => new InputError(`${file}:${lineNo + 1}: line longer than ${maxLine} bytes: not ${what}`);
  try {
    for await (const chunk of chunksOf(file, what)) {
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
