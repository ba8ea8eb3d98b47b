// image_alt_missing: images a screen reader cannot describe.
import { where } from './article-reading.js';
import type { Check } from './check-context.js';

/** One finding per article: the count and where the first one is. Decorative images (role="presentation", aria-hidden) are fine. */
export const imageAltCheck: Check = ({ reading }) => {
  const missing = reading.images.filter((image) => !image.decorative && (image.alt === undefined || image.alt.trim() === ''));
  if (missing.length === 0) return [];
  const first = missing[0]!;
  const count = missing.length === 1 ? 'an image has' : `${missing.length} images have`;
  return [
    {
      code: 'image_alt_missing',
      message: `${count} no alt text (the first ${where(first.under)}, src "${first.src}"); edit the article to describe ${missing.length === 1 ? 'it' : 'them'} in alt="…"`,
    },
  ];
};
