// Image downloads: remote images fetched (bounded, typed, timed) into a content-addressed directory.

import { createHash, randomBytes } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { BlockList, isIP } from 'node:net';
import { basename, join } from 'node:path';
import type { Element, Parents, Root } from 'hast';
import { imageSize } from 'image-size';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Plugin } from 'unified';
import type { VFile } from 'vfile';
import { z } from 'zod';
import { urlForMessage } from '../lang/url-for-message.js';
import { warn } from './article-data.js';
import { markOriginalSrc } from './node-marks.js';
import { checkOptions, pluginOption } from './option-check.js';
import {
  DEFAULT_DOWNLOAD_CONCURRENCY,
  DEFAULT_DOWNLOAD_TIMEOUT_MS,
  DEFAULT_MAX_IMAGE_BYTES,
  downloadImagesOptionsSchema,
  type DownloadImagesOptions,
} from './image-download-options.js';
import { schemeOf } from './url-policy.js';

export { DEFAULT_DOWNLOAD_CONCURRENCY, DEFAULT_DOWNLOAD_TIMEOUT_MS, DEFAULT_MAX_IMAGE_BYTES, downloadImagesOptionsSchema };
export type { DownloadCache, DownloadImagesOptions } from './image-download-options.js';

const MAX_REDIRECTS = 5;

interface ImageType {
  extension: string;
  sniff: (bytes: Uint8Array) => boolean;
}

// SVG is left out on purpose: served from the site's own origin, an SVG opened directly runs its script.
const IMAGE_TYPES: Record<string, ImageType> = {
  'image/png': { extension: 'png', sniff: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  'image/jpeg': { extension: 'jpg', sniff: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  'image/gif': { extension: 'gif', sniff: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a' },
  'image/webp': { extension: 'webp', sniff: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
  'image/avif': { extension: 'avif', sniff: (b) => ascii(b, 4, 8) === 'ftyp' && /^avi[fs]$/.test(ascii(b, 8, 12)) },
};

/**
 * Download every remote (http/https) image into `dir` and point its `src` at `publicPath`. A failed
 * download keeps the remote URL and adds a warning to `file.messages`. Run it after `rehypeArticleImages`.
 */
export const rehypeArticleImageDownload: Plugin<[DownloadImagesOptions], Root> = function (options) {
  checkOptions(downloadImagesOptionsSchema, options, pluginOption('rehypeArticleImageDownload'));
  return async (tree, file) => {
    const images: Element[] = [];
    collectImages(tree, images);
    if (images.length > 0) await downloadAll(images, options, file);
  };
};

/** Each remote URL is fetched once per article, however many images show it. */
async function downloadAll(images: Element[], options: DownloadImagesOptions, file: VFile): Promise<void> {
  const byUrl = new Map<string, Promise<DownloadResult>>();
  await Promise.all(
    images.map(async (node) => {
      const src = node.properties.src;
      const scheme = typeof src === 'string' ? schemeOf(src) : undefined;
      if (typeof src !== 'string' || (scheme !== 'http' && scheme !== 'https')) return;
      let pending = byUrl.get(src);
      if (!pending) {
        pending = downloadImage(src, options).then((result) => {
          if (!result.ok) warn(file, `Image ${urlForMessage(src)} was not downloaded: ${result.reason}; the remote URL is kept.`, 'image-download');
          return result;
        });
        byUrl.set(src, pending);
      }
      const result = await pending;
      if (result.ok) {
        node.properties.src = result.src;
        // The file's own size: truer than any size the HTML or the request declared.
        if (result.width !== undefined && result.height !== undefined) {
          node.properties.width = result.width;
          node.properties.height = result.height;
        }
        markOriginalSrc(node, src);
      }
    }),
  );
}

function collectImages(parent: Parents, images: Element[]): void {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'img') images.push(child);
    else collectImages(child, images);
  }
}

/** A downloaded image: where it is served from, its file, and its real size when the file says it. */
export type DownloadResult = { ok: true; src: string; fileName: string; width?: number; height?: number } | { ok: false; reason: string };

const limiters = new WeakMap<DownloadImagesOptions, LimitFunction>();

/** Download one image; never throws: a failure comes back with a reason to warn about. */
export function downloadImage(url: string, options: DownloadImagesOptions): Promise<DownloadResult> {
  let limit = limiters.get(options);
  if (!limit) {
    limit = pLimit(options.concurrency ?? DEFAULT_DOWNLOAD_CONCURRENCY);
    limiters.set(options, limit);
  }
  return limit(() => download(url, options)).catch((error: unknown) => ({ ok: false as const, reason: describe(error, options) }));
}

async function download(url: string, options: DownloadImagesOptions): Promise<DownloadResult> {
  const publicPath = options.publicPath.endsWith('/') ? options.publicPath : options.publicPath + '/';
  const cached = await cachedFile(url, options);
  if (cached) return { ok: true, src: publicPath + cached, fileName: cached, ...(await sizeOfFile(join(options.dir, cached))) };

  const maxBytes = options.maxBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  const fetched = await fetchFollowingRedirects(url, options);
  if (!fetched.ok) return fetched;
  const accepted = await acceptedImage(fetched.response, maxBytes);
  if (!accepted.ok) return accepted;
  const bytes = await readBounded(fetched.response, maxBytes);
  if (!bytes) return { ok: false, reason: `it is larger than the ${maxBytes}-byte limit` };
  if (!accepted.type.sniff(bytes)) return { ok: false, reason: `its bytes are not a ${accepted.contentType} image` };

  const fileName = `${createHash('sha256').update(bytes).digest('hex')}.${accepted.type.extension}`;
  await store(bytes, join(options.dir, fileName), options.dir);
  await options.cache?.set(url, fileName);
  return { ok: true, src: publicPath + fileName, fileName, ...sizeOf(bytes) };
}

/** The pixel size an image file declares (read by `image-size`), or nothing when it can't be read. */
function sizeOf(bytes: Uint8Array): { width?: number; height?: number } {
  try {
    const { width, height } = imageSize(bytes);
    return width > 0 && height > 0 ? { width, height } : {};
  } catch {
    return {};
  }
}

/** The pixel size of an image file, or nothing when it is missing or can't be read. */
export async function sizeOfFile(path: string): Promise<{ width?: number; height?: number }> {
  try {
    return sizeOf(await readFile(path));
  } catch {
    return {};
  }
}

/** The stored file a URL became on an earlier build, if the cache remembers it and it is still there. */
async function cachedFile(url: string, options: DownloadImagesOptions): Promise<string | undefined> {
  const cached = await options.cache?.get(url);
  return cached && /^[a-f0-9]{64}\.[a-z]+$/.test(cached) && (await exists(join(options.dir, cached))) ? cached : undefined;
}

type Refusal = { ok: false; reason: string };

/** The final answer for a URL, redirects followed by hand so that every hop is checked like the first. */
async function fetchFollowingRedirects(url: string, options: DownloadImagesOptions): Promise<{ ok: true; response: Response } | Refusal> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS);
  // Called unbound, as a plain function: a browser-style fetch refuses to run with another `this`.
  const fetchImpl = options.fetch;
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const refusal = refuseUrl(current, options.allowPrivateHosts ?? false);
    if (refusal) return { ok: false, reason: refusal };
    const response = await fetchImpl(current, {
      signal,
      redirect: 'manual',
      headers: { accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9' },
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      current = new URL(location, current).href;
      continue;
    }
    if (response.status === 200) return { ok: true, response };
    await response.body?.cancel();
    return { ok: false, reason: `the server answered HTTP ${response.status}` };
  }
  return { ok: false, reason: `more than ${MAX_REDIRECTS} redirects` };
}

/** The image type a response declares, when it is one we store and not over the size limit; else the body is dropped. */
async function acceptedImage(response: Response, maxBytes: number): Promise<{ ok: true; type: ImageType; contentType: string } | Refusal> {
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const type = IMAGE_TYPES[contentType];
  if (!type) {
    await response.body?.cancel();
    const why = contentType === 'image/svg+xml' ? ' (SVG can carry script, so it is not stored on your site)' : '';
    return { ok: false, reason: `content type "${contentType || 'none'}" is not an accepted image type${why}` };
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    return { ok: false, reason: `it is larger than the ${maxBytes}-byte limit` };
  }
  return { ok: true, type, contentType };
}

/** Write the file under its content name, atomically: a temporary file renamed into place. */
async function store(bytes: Uint8Array, path: string, dir: string): Promise<void> {
  if (await exists(path)) return;
  await mkdir(dir, { recursive: true });
  const temporary = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['::ffff:0:0', 96]] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

function refuseUrl(value: string, allowPrivateHosts: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `its scheme ${url.protocol} is not http(s)`;
  if (allowPrivateHosts) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(host);
  const isPrivate =
    host === 'localhost' || host.endsWith('.localhost') || (family !== 0 && PRIVATE.check(host, family === 4 ? 'ipv4' : 'ipv6'));
  return isPrivate ? 'its host is a private or loopback address (set allowPrivateHosts to allow it)' : undefined;
}

function describe(error: unknown, options: DownloadImagesOptions): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return `it took longer than ${options.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS} ms`;
  }
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code ?? cause?.message ?? (error as Error | null)?.message ?? String(error);
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}
