// A JPEG's marker structure walked the way libjpeg walks it, so what libjpeg only warns about does
// not make the file "damaged": bytes that are not a marker where one is due (libjpeg: "extraneous
// bytes before marker", skipped), a missing EOI (libjpeg: "premature end", taken as the end) and
// data after EOI (never read). The tidy copy holds exactly the segments libjpeg decodes, in order,
// so a PDF viewer's DCTDecode shows it as libjpeg shows the upload; nothing is decoded here.

export interface TidyJpeg {
  /** SOI, every segment and entropy-coded scan libjpeg reads, and EOI. */
  bytes: Uint8Array;
  /** The upload is already exactly that (the common case: its bytes go on as they are). */
  exact: boolean;
  /** The file ended without EOI: whether the last scan is whole only a decode can tell. */
  missingEnd: boolean;
}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
/** Markers without a length: TEM and RST0–7 (SOI and EOI are handled on their own). */
const isStandalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

/** Null when the file does not start with SOI (not a JPEG at all). */
export function tidyJpegMarkers(upload: Uint8Array): TidyJpeg | null {
  // A Buffer view (no copy): its indexOf is memchr, several times a typed array's loop over a
  // photo's megabyte of scan data, and an upload reaches the sandbox child as a plain Uint8Array.
  const jpeg = Buffer.from(upload.buffer, upload.byteOffset, upload.byteLength);
  if (jpeg[0] !== 0xff || jpeg[1] !== SOI) return null;
  const kept: Uint8Array[] = [jpeg.subarray(0, 2)];
  let exact = true;
  let at = 2;
  for (;;) {
    // libjpeg's next_marker: anything up to an 0xFF is discarded, fill bytes (0xFF 0xFF) too.
    let next = jpeg.indexOf(0xff, at);
    while (next !== -1 && jpeg[next + 1] === 0xff) next += 1;
    if (next === -1 || next + 1 >= jpeg.length) break;
    if (next !== at) exact = false;
    const marker = jpeg[next + 1]!;
    if (marker === EOI) {
      kept.push(jpeg.subarray(next, next + 2));
      if (next + 2 !== jpeg.length) exact = false; // trailing data
      return { bytes: exact ? upload : Buffer.concat(kept), exact, missingEnd: false };
    }
    if (marker === 0x00 || isStandalone(marker) || marker === SOI) {
      // Not a marker libjpeg acts on between segments: skipped like the bytes before it.
      exact = false;
      at = next + 2;
      continue;
    }
    if (next + 4 > jpeg.length) break;
    const length = (jpeg[next + 2]! << 8) | jpeg[next + 3]!;
    let end = next + 2 + length;
    if (length < 2 || end > jpeg.length) break;
    if (marker === SOS) end = scanEnd(jpeg, end);
    kept.push(jpeg.subarray(next, end));
    at = end;
  }
  // The file ended (or broke off inside a segment) before EOI: libjpeg decodes up to here.
  kept.push(Uint8Array.of(0xff, EOI));
  return { bytes: Buffer.concat(kept), exact: false, missingEnd: true };
}

/** Where an entropy-coded segment ends: at the first 0xFF that is not stuffing, RST or fill. */
function scanEnd(jpeg: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    const ff = jpeg.indexOf(0xff, at);
    if (ff === -1 || ff + 1 >= jpeg.length) return jpeg.length;
    const next = jpeg[ff + 1]!;
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) {
      at = next === 0xff ? ff + 1 : ff + 2;
      continue;
    }
    return ff;
  }
}
