// A minimal reader of a zip's central directory (the part that lists the entries), so a docx can
// be inspected before anything is inflated.

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

function view(bytes: Uint8Array) {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The entries of a zip, or null when the central directory is missing or malformed (or zip64). */
export function listZipEntries(bytes: Uint8Array, maxEntries = 10_000): ZipEntry[] | null {
  const dv = view(bytes);
  // The end-of-central-directory record is within the last 22 + 65535 bytes.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (dv.getUint32(i, true) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = dv.getUint16(eocd + 10, true);
  const dirSize = dv.getUint32(eocd + 12, true);
  const dirOffset = dv.getUint32(eocd + 16, true);
  if (count === 0xffff || dirOffset === 0xffffffff) return null; // zip64: never a real docx here
  if (count > maxEntries) return Array.from({ length: count }, () => BOGUS_ENTRY);
  if (dirOffset + dirSize > bytes.length) return null;
  const entries: ZipEntry[] = [];
  let at = dirOffset;
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || dv.getUint32(at, true) !== CENTRAL_SIGNATURE) return null;
    const nameLength = dv.getUint16(at + 28, true);
    const extraLength = dv.getUint16(at + 30, true);
    const commentLength = dv.getUint16(at + 32, true);
    if (at + 46 + nameLength > bytes.length) return null;
    entries.push({
      flags: dv.getUint16(at + 8, true),
      method: dv.getUint16(at + 10, true),
      compressedSize: dv.getUint32(at + 20, true),
      uncompressedSize: dv.getUint32(at + 24, true),
      localHeaderOffset: dv.getUint32(at + 42, true),
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const BOGUS_ENTRY: ZipEntry = {
  name: '',
  method: 0,
  flags: 0,
  compressedSize: 0,
  uncompressedSize: 0,
  localHeaderOffset: 0,
};

/** The compressed bytes of an entry (after its local header), or null when out of bounds. */
export function readEntryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array | null {
  const dv = view(bytes);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || dv.getUint32(at, true) !== LOCAL_SIGNATURE) return null;
  const start = at + 30 + dv.getUint16(at + 26, true) + dv.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) return null;
  return bytes.subarray(start, end);
}
