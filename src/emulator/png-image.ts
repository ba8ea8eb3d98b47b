// Placeholder images for the articles the emulator writes: palette PNGs built with zlib.
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** Largest side the emulator renders; bigger requests are refused by the image route. */
export const MAX_IMAGE_SIDE = 4096;

/**
 * A PNG of `width`×`height` pixels whose colours and stripes derive from `seed`: distinct per
 * image, identical on every request. Palette colour type keeps it fast and small.
 */
export function renderPng(width: number, height: number, seed: string): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new RangeError(`image size ${width}x${height} is outside 1..${MAX_IMAGE_SIDE}`);
  }
  const digest = createHash('sha256').update(seed).digest();
  const palette = Buffer.from([
    digest[0] ?? 0, digest[1] ?? 0, digest[2] ?? 0,
    255 - (digest[0] ?? 0), 255 - (digest[1] ?? 0), 255 - (digest[2] ?? 0),
    digest[3] ?? 0, digest[4] ?? 0, digest[5] ?? 0,
    240, 240, 240,
  ]);
  const stripe = 16 + ((digest[6] ?? 0) % 48);
  const border = Math.max(2, Math.round(Math.min(width, height) / 64));
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      let index = Math.floor((x + y) / stripe) % 2;
      if (x < border || y < border || x >= width - border || y >= height - border) index = 3;
      else if (Math.abs(x - width / 2) < width / 8 && Math.abs(y - height / 2) < height / 8) index = 2;
      raw[row + 1 + x] = index;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 3; // colour type: palette
  header[10] = 0;
  header[11] = 0;
  header[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', palette),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
