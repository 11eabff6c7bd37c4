// A minimal reader of an OLE compound file's directory (MS-CFB): enough to list the stream names,
// which tells a password-protected Word document (EncryptionInfo + EncryptedPackage, the way
// Word stores an encrypted .docx) from an old binary .doc or anything else.

export const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] as const;

const ENDOFCHAIN = 0xfffffffe;
const MAX_DIRECTORY_SECTORS = 4096;

export function isCompoundFile(bytes: Uint8Array): boolean {
  return bytes.length >= 512 && CFB_SIGNATURE.every((b, i) => bytes[i] === b);
}

/** Names of the directory entries, or null when the file is not a readable compound file. */
export function listCompoundFileNames(bytes: Uint8Array): string[] | null {
  if (!isCompoundFile(bytes)) return null;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shift = dv.getUint16(0x1e, true);
  if (shift !== 9 && shift !== 12) return null;
  const sectorSize = 1 << shift;
  const sectorOffset = (n: number) => (n + 1) * sectorSize;
  const fatSectorCount = dv.getUint32(0x2c, true);
  // The first 109 FAT sectors are listed in the header; a directory that needs more is far
  // beyond any Word document's size limit here, so those files are simply not recognised.
  const fatSectors: number[] = [];
  for (let i = 0; i < Math.min(109, fatSectorCount); i++)
    fatSectors.push(dv.getUint32(0x4c + i * 4, true));
  const entriesPerFatSector = sectorSize / 4;
  const nextSector = (n: number): number | null => {
    const fatSector = fatSectors[Math.floor(n / entriesPerFatSector)];
    if (fatSector === undefined) return null;
    const at = sectorOffset(fatSector) + (n % entriesPerFatSector) * 4;
    if (at + 4 > bytes.length) return null;
    return dv.getUint32(at, true);
  };
  const names: string[] = [];
  let sector: number | null = dv.getUint32(0x30, true);
  for (let visited = 0; sector !== ENDOFCHAIN; visited++) {
    if (sector === null || visited >= MAX_DIRECTORY_SECTORS) return null;
    const start = sectorOffset(sector);
    if (start + sectorSize > bytes.length) return null;
    for (let at = start; at < start + sectorSize; at += 128) {
      const nameBytes = Math.min(64, dv.getUint16(at + 0x40, true));
      const type = bytes[at + 0x42];
      if (type === 0 || nameBytes < 2) continue;
      let name = '';
      // The length counts the terminating NUL.
      for (let i = 0; i < nameBytes - 2; i += 2) {
        name += String.fromCharCode(dv.getUint16(at + i, true));
      }
      names.push(name);
    }
    sector = nextSector(sector);
  }
  return names;
}

/** A compound file holding an encrypted OOXML package (how Word saves a password-protected docx). */
export function isEncryptedOfficePackage(bytes: Uint8Array): boolean {
  const names = listCompoundFileNames(bytes);
  return !!names && names.includes('EncryptedPackage') && names.includes('EncryptionInfo');
}
