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

/** Hues of the illustration's palette: sky, sun, far hills, near hills (HSL lightness per band). */
const SKY_BANDS = 4;

function hsl(hue: number, saturation: number, lightness: number): [number, number, number] {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const f = (n: number) => {
    const k = (n + hue / 30) % 12;
    return Math.round(255 * (lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** The palette: sky bands from light to deep, the sun, two layers of hills; hues from the seed. */
function illustrationPalette(digest: Buffer): Buffer {
  const skyHue = 180 + ((digest[0] ?? 0) % 60);
  const hillHue = 80 + ((digest[1] ?? 0) % 80);
  const colours: [number, number, number][] = [];
  for (let band = 0; band < SKY_BANDS; band++) colours.push(hsl(skyHue, 0.55, 0.86 - band * 0.07));
  colours.push(hsl(35 + ((digest[2] ?? 0) % 20), 0.95, 0.62)); // the sun
  colours.push(hsl(hillHue, 0.35, 0.5)); // far hills
  colours.push(hsl(hillHue + 10, 0.45, 0.34)); // near hills
  return Buffer.from(colours.flat());
}

/**
 * A PNG of `width`×`height` pixels that looks like a flat illustration: a banded sky, a sun and two
 * rolling hills, with colours and shapes from `seed`: distinct per image, identical on every
 * request. Palette colour type keeps it fast and small.
 */
export function renderPng(width: number, height: number, seed: string): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new RangeError(`image size ${width}x${height} is outside 1..${MAX_IMAGE_SIDE}`);
  }
  const digest = createHash('sha256').update(seed).digest();
  const palette = illustrationPalette(digest);
  const sun = { x: width * (0.2 + ((digest[3] ?? 0) % 60) / 100), y: height * (0.2 + ((digest[4] ?? 0) % 20) / 100), r: Math.min(width, height) * 0.09 };
  const phase = ((digest[5] ?? 0) / 255) * Math.PI * 2;
  const far = (x: number) => height * (0.58 + 0.06 * Math.sin((x / width) * Math.PI * 2 + phase));
  const near = (x: number) => height * (0.74 + 0.05 * Math.sin((x / width) * Math.PI * 3 + phase * 2));
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width + 1);
    raw[row] = 0; // filter: none
    const band = Math.min(SKY_BANDS - 1, Math.floor((y / (height * 0.75)) * SKY_BANDS));
    for (let x = 0; x < width; x++) {
      let index = band;
      if ((x - sun.x) ** 2 + (y - sun.y) ** 2 < sun.r ** 2) index = SKY_BANDS;
      if (y > far(x)) index = SKY_BANDS + 1;
      if (y > near(x)) index = SKY_BANDS + 2;
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
