// Test harness: where a cover card has ink (pixels away from its background), decoded by the card's own renderer.
import { createCanvas, loadImage } from '@napi-rs/canvas';

/** The part of a 1200×630 card the title is drawn in (above the site name), and the band of the site name. */
export const TITLE_AREA = { top: 0, bottom: 470 } as const;
export const SITE_NAME_AREA = { top: 505, bottom: 575 } as const;
/** The card's side margins: a line starts at one of them. */
export const MARGIN = 72;

export interface Ink {
  /** Pixels of ink in the band. */
  pixels: number;
  /** The leftmost and rightmost columns, and the lowest row, with ink (-1 without ink). */
  left: number;
  right: number;
  bottom: number;
  /** One byte per pixel of the band: 1 where there is ink. */
  mask: Uint8Array;
}

/** The ink of `png` between rows `top` and `bottom`: a pixel whose colour is far from the card's corner (its background). */
export async function inkOf(png: Uint8Array, band: { top: number; bottom: number }): Promise<Ink & { width: number; height: number }> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  const background = [data[0]!, data[1]!, data[2]!];
  const rows = band.bottom - band.top;
  const mask = new Uint8Array(rows * image.width);
  let pixels = 0;
  let left = -1;
  let right = -1;
  let bottom = -1;
  for (let y = band.top; y < band.bottom; y += 1) {
    for (let x = 0; x < image.width; x += 1) {
      const at = (y * image.width + x) * 4;
      const distance = Math.max(Math.abs(background[0]! - data[at]!), Math.abs(background[1]! - data[at + 1]!), Math.abs(background[2]! - data[at + 2]!));
      if (distance < 96) continue;
      mask[(y - band.top) * image.width + x] = 1;
      pixels += 1;
      left = left === -1 ? x : Math.min(left, x);
      right = Math.max(right, x);
      bottom = Math.max(bottom, y);
    }
  }
  return { pixels, left, right, bottom, mask, width: image.width, height: image.height };
}

/** The share of the ink of either that the other lacks: 0 for the same drawing (the same boxes of missing glyphs), near 1 for unrelated text. */
export function inkDifference(a: Ink, b: Ink): number {
  let differ = 0;
  for (let index = 0; index < a.mask.length; index += 1) if (a.mask[index] !== b.mask[index]) differ += 1;
  return differ / Math.max(1, a.pixels, b.pixels);
}
