// Image sizes: the spec's pixel sizes and shorthands, and the pixel box each shorthand stands for.

export const IMAGE_PIXEL_SIZES = ['1024x1024', '1536x1024', '1024x1536', '1792x1008', '1008x1792'] as const;
export const IMAGE_SIZE_SHORTHANDS = ['1:1', '16:9', '9:16', 'square', 'landscape', 'portrait'] as const;
export const IMAGE_SIZES = [...IMAGE_PIXEL_SIZES, ...IMAGE_SIZE_SHORTHANDS] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

/**
 * The spec does not say which pixel size a shorthand produces; we map each to the
 * listed pixel size with the same aspect ratio (documented in the README).
 */
const SHORTHAND_PIXELS: Record<(typeof IMAGE_SIZE_SHORTHANDS)[number], (typeof IMAGE_PIXEL_SIZES)[number]> = {
  '1:1': '1024x1024',
  square: '1024x1024',
  '16:9': '1792x1008',
  '9:16': '1008x1792',
  landscape: '1536x1024',
  portrait: '1024x1536',
};

/** Width and height in pixels for an `imageSize` value, or undefined for an unknown value. */
export function imageSizeToPixels(size: string): { width: number; height: number } | undefined {
  const pixel = (SHORTHAND_PIXELS as Record<string, string>)[size] ?? size;
  if (!(IMAGE_PIXEL_SIZES as readonly string[]).includes(pixel)) return undefined;
  const [width, height] = pixel.split('x').map(Number) as [number, number];
  return { width, height };
}
