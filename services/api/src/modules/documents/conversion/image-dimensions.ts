// Width and height of an encoded image read from its header alone, so the pixel count a decoder
// would allocate is known before anything decodes it (images inside a docx for LibreOffice,
// JPEG and JPEG 2000 streams inside a PDF for viewers).

type Size = [width: number, height: number];

function largest(sizes: Size[]): Size | undefined {
  let best: Size | undefined;
  for (const size of sizes) if (!best || size[0] * size[1] > best[0] * best[1]) best = size;
  return best;
}

/** Every frame header (SOFn) counts: a JPEG may hold several and readers differ on which. */
function jpegSize(bytes: Buffer): Size | undefined {
  const sizes: Size[] = [];
  for (let at = bytes.indexOf(0xff, 2); at !== -1 && at + 9 <= bytes.length;) {
    const marker = bytes[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      sizes.push([bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5)]);
    }
    at = bytes.indexOf(0xff, at + 1);
  }
  return largest(sizes);
}

/** JPEG 2000 (bare codestream or JP2 boxes): SOC then SIZ, whose Xsiz/Ysiz less offsets is the image. */
function jpeg2000Size(bytes: Buffer): Size | undefined {
  const sizes: Size[] = [];
  for (let at = bytes.indexOf('ff4fff51', 0, 'hex'); at !== -1 && at + 24 <= bytes.length;) {
    const width = bytes.readUInt32BE(at + 8) - bytes.readUInt32BE(at + 16);
    const height = bytes.readUInt32BE(at + 12) - bytes.readUInt32BE(at + 20);
    sizes.push([Math.max(0, width), Math.max(0, height)]);
    at = bytes.indexOf('ff4fff51', at + 4, 'hex');
  }
  return largest(sizes);
}

/** Every image directory of a TIFF (a page or a reduced image each), at most 64 of them. */
function tiffSize(bytes: Buffer): Size | undefined {
  const little = bytes[0] === 0x49;
  const u16 = (at: number) => (little ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at));
  const u32 = (at: number) => (little ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  const sizes: Size[] = [];
  let ifd = u32(4);
  for (let n = 0; n < 64 && ifd > 0 && ifd + 2 <= bytes.length; n++) {
    const count = u16(ifd);
    let width = 0;
    let height = 0;
    for (let i = 0; i < count; i++) {
      const entry = ifd + 2 + i * 12;
      if (entry + 12 > bytes.length) break;
      const tag = u16(entry);
      const value = u16(entry + 2) === 3 ? u16(entry + 8) : u32(entry + 8);
      if (tag === 256) width = value;
      else if (tag === 257) height = value;
    }
    sizes.push([width, height]);
    const next = ifd + 2 + count * 12;
    ifd = next + 4 <= bytes.length ? u32(next) : 0;
  }
  return largest(sizes);
}

/** The largest width×height the image's headers declare, or undefined when it is not one we know. */
export function readImageDimensions(data: Uint8Array): Size | undefined {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.length < 8) return undefined;
  if (
    bytes.length >= 24 &&
    bytes.readUInt32BE(0) === 0x89504e47 &&
    bytes.toString('latin1', 12, 16) === 'IHDR'
  ) {
    return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  if (bytes.toString('latin1', 0, 3) === 'GIF' && bytes.length >= 10) {
    return [bytes.readUInt16LE(6), bytes.readUInt16LE(8)];
  }
  if (bytes.toString('latin1', 0, 2) === 'BM' && bytes.length >= 26) {
    return [Math.abs(bytes.readInt32LE(18)), Math.abs(bytes.readInt32LE(22))];
  }
  const tiff = bytes.toString('latin1', 0, 4);
  if (tiff === 'II*\u0000' || tiff === 'MM\u0000*') return tiffSize(bytes);
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    // VP8X carries the canvas size (24-bit, minus one); simple VP8/VP8L files are small anyway.
    if (bytes.toString('latin1', 12, 16) === 'VP8X' && bytes.length >= 30) {
      return [bytes.readUIntLE(24, 3) + 1, bytes.readUIntLE(27, 3) + 1];
    }
    return undefined;
  }
  return jpeg2000Size(bytes);
}
