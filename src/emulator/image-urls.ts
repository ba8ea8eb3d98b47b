// URLs of the images the emulator serves: optional expiry with a tamper-evident signature.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** An image id as the writer makes it: `<hash>-<index>-<w>x<h>` (`p` before the index: product photo). */
const IMAGE_ID = /^([0-9a-f]{16})-(p?\d{1,4})-(\d{1,4})x(\d{1,4})$/;

export interface ParsedImageId {
  id: string;
  width: number;
  height: number;
}

export function parseImageFileName(fileName: string): ParsedImageId | undefined {
  const match = /^(.+)\.png$/.exec(fileName);
  const id = match?.[1];
  if (id === undefined) return undefined;
  const parts = IMAGE_ID.exec(id);
  if (parts === null) return undefined;
  return { id, width: Number(parts[3]), height: Number(parts[4]) };
}

/**
 * Signs image URLs like a storage service signs expiring links. The key derives from the seed: the
 * emulator protects nothing, but a tampered `expires` must still be refused, as a real CDN would.
 */
export class ImageUrlSigner {
  readonly #key: Buffer;

  constructor(seed: string) {
    this.#key = createHash('sha256').update(`astro-article-loader emulator image urls\u0000${seed}`).digest();
  }

  /** Path and query for an image, expiring at `expiresAt` (ms) when given. */
  path(imageId: string, expiresAt: number | undefined): string {
    const path = `/_emulator/images/${imageId}.png`;
    if (expiresAt === undefined) return path;
    return `${path}?expires=${expiresAt}&signature=${this.#sign(imageId, expiresAt)}`;
  }

  /**
   * 'ok', 'expired' or 'invalid' for a request's query. Unsigned URLs are accepted only while
   * expiry is off (`signed: false`).
   */
  check(imageId: string, query: URLSearchParams, now: number, signed: boolean): 'ok' | 'expired' | 'invalid' {
    const expires = query.get('expires');
    const signature = query.get('signature');
    if (expires === null && signature === null) return signed ? 'invalid' : 'ok';
    if (expires === null || signature === null || !/^\d{1,16}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.#sign(imageId, Number(expires)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return Number(expires) <= now ? 'expired' : 'ok';
  }

  #sign(imageId: string, expiresAt: number): string {
    return createHmac('sha256', this.#key).update(`${imageId}\u0000${expiresAt}`).digest('base64url');
  }
}
