// Placeholder images for the articles the emulator writes: palette PNGs, written by fast-png (as the cover cards are).
import { createHash } from 'node:crypto';
import { encode } from 'fast-png';

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
function illustrationPalette(digest: Buffer): [number, number, number][] {
  const skyHue = 180 + ((digest[0] ?? 0) % 60);
  const hillHue = 80 + ((digest[1] ?? 0) % 80);
  const colours: [number, number, number][] = [];
  for (let band = 0; band < SKY_BANDS; band++) colours.push(hsl(skyHue, 0.55, 0.86 - band * 0.07));
  colours.push(hsl(35 + ((digest[2] ?? 0) % 20), 0.95, 0.62)); // the sun
  colours.push(hsl(hillHue, 0.35, 0.5)); // far hills
  colours.push(hsl(hillHue + 10, 0.45, 0.34)); // near hills
  return colours;
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
  const indices = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const band = Math.min(SKY_BANDS - 1, Math.floor((y / (height * 0.75)) * SKY_BANDS));
    for (let x = 0; x < width; x++) {
      let index = band;
      if ((x - sun.x) ** 2 + (y - sun.y) ** 2 < sun.r ** 2) index = SKY_BANDS;
      if (y > far(x)) index = SKY_BANDS + 1;
      if (y > near(x)) index = SKY_BANDS + 2;
      indices[row + x] = index;
    }
  }
  const png = encode({ width, height, data: indices, depth: 8, channels: 1, palette }, { zlib: { level: 6 } });
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}
