// The image route: GET/HEAD /_emulator/images/{id}.png serves a signed, generated PNG from a small cache.
import { failure, type Answer } from '../answer.js';
import type { EmulatorContext } from '../context.js';
import { parseImageFileName, type ParsedImageId } from '../image-urls.js';
import { MAX_IMAGE_SIDE, renderPng } from '../png-image.js';

/** Rendered PNGs kept for repeated fetches. */
const PNG_CACHE_SIZE = 32;

function cachedPng(cache: Map<string, Buffer>, image: ParsedImageId): Buffer {
  let png = cache.get(image.id);
  if (png === undefined) {
    png = renderPng(image.width, image.height, image.id);
    cache.set(image.id, png);
    if (cache.size > PNG_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  return png;
}

/** GET or HEAD /_emulator/images/{fileName} */
export function imageRoute(ctx: EmulatorContext, fileName: string, query: URLSearchParams): Answer {
  const parsed = parseImageFileName(fileName);
  if (parsed === undefined || parsed.width > MAX_IMAGE_SIDE || parsed.height > MAX_IMAGE_SIDE) return failure(404, 'not_found', 'No such image.');
  const check = ctx.signer.check(parsed.id, query, Date.now(), ctx.options.imageUrlTtlMs !== undefined);
  if (check === 'expired') return failure(403, 'forbidden', 'This image URL has expired; fetch the article again for fresh URLs, or download images when the article finishes.');
  if (check === 'invalid') return failure(403, 'forbidden', 'This image URL is not validly signed.');
  const png = cachedPng(ctx.pngCache, parsed);
  return { status: 200, body: png, contentType: 'image/png', json: false, headers: { 'cache-control': 'public, max-age=3600' } };
}
