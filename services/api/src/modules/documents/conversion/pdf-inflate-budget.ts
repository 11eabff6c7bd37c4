// How many bytes a PDF's Flate streams inflate to, measured with a cap before any parser sees the
// file: pdf-lib and qpdf inflate object streams whole and unbounded (BENCHMARKS.md has what a bomb
// did to the API). We do not parse here; every `stream` keyword is tried, which also finds streams of a
// damaged file whose cross-reference table lies.
import { constants, inflateSync } from 'node:zlib';

const STREAM = Buffer.from('stream', 'latin1');
const END = Buffer.from('endstream', 'latin1');
/** Deflate cannot do better than about 1032:1, so this bounds what a corrupt stream could emit. */
const MAX_DEFLATE_RATIO = 1032;
/** Streams nested in Flate inside Flate (/Filter [/FlateDecode /FlateDecode]) are followed this deep. */
const MAX_NESTED_FLATE = 4;

/** Total inflated bytes, counted up to `limit` + 1 (anything above `limit` is too much). */
export function measureInflatedBytes(pdf: Uint8Array, limit: number): number {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  let total = 0;
  let at = bytes.indexOf(STREAM);
  while (at !== -1 && total <= limit) {
    const isEnd = at >= 3 && bytes.toString('latin1', at - 3, at) === 'end';
    const start = streamDataStart(bytes, at + STREAM.length);
    if (!isEnd && start !== -1) {
      const endAt = bytes.indexOf(END, start);
      const compressed = bytes.subarray(start, endAt === -1 ? bytes.length : endAt);
      total += inflatedSize(compressed, limit - total + 1, MAX_NESTED_FLATE);
    }
    at = bytes.indexOf(STREAM, at + STREAM.length);
  }
  return total;
}

/** The keyword is followed by CRLF or LF (PDF 32000-1 §7.3.8.1); a lone CR is tolerated. */
function streamDataStart(bytes: Buffer, after: number): number {
  if (bytes[after] === 0x0d) return bytes[after + 1] === 0x0a ? after + 2 : after + 1;
  if (bytes[after] === 0x0a) return after + 1;
  return -1;
}

function looksLikeZlib(data: Uint8Array): boolean {
  return data.length >= 2 && (data[0]! & 0x0f) === 8 && ((data[0]! << 8) | data[1]!) % 31 === 0;
}

/**
 * `nested`: the data is the output of another inflate and only might be zlib (an image row can
 * start with the same two bytes), so a failure there means "not a nested stream", not "corrupt".
 */
function inflatedSize(data: Uint8Array, cap: number, depth: number, nested = false): number {
  if (!looksLikeZlib(data)) return 0;
  let output: Buffer;
  try {
    // Z_SYNC_FLUSH: a truncated stream counts what it yields instead of failing.
    output = inflateSync(data, { maxOutputLength: cap, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return cap;
    if (nested) return 0;
    // Corrupt data: zlib keeps no partial count, so assume the worst this input could have made.
    return Math.min(cap, data.length * MAX_DEFLATE_RATIO);
  }
  if (depth > 1) {
    return Math.max(output.length, inflatedSize(output, cap, depth - 1, true));
  }
  return output.length;
}
