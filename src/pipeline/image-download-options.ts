// The `downloadImages` options: their types, defaults and rules, apart from the downloader so that checking options loads no image decoder.
import { z } from 'zod';
import { optionsObject, rule, storeRule } from './option-check.js';

/** Remembers which stored file a remote URL became, so an expired URL still resolves on the next build. */
export interface DownloadCache {
  get(url: string): Promise<string | undefined>;
  set(url: string, fileName: string): Promise<void>;
}

export interface DownloadImagesOptions {
  /** Directory the files are written to, e.g. `'public/images/articles'`. Created when missing. */
  dir: string;
  /** URL path the directory is served at, e.g. `'/images/articles/'`. */
  publicPath: string;
  /** Largest image accepted, in bytes. Default 10 MiB. */
  maxBytes?: number;
  /** Time allowed per image, headers and body together, in milliseconds. Default 20 000. */
  timeoutMs?: number;
  /** Downloads at once, across all articles sharing this options object. Default 4. */
  concurrency?: number;
  /**
   * Allow hosts that are loopback, private, link-local or `localhost` (by name or IP literal).
   * Default false: a build machine should not fetch its own network on behalf of untrusted HTML.
   */
  allowPrivateHosts?: boolean;
  /**
   * URL → file name memory. Without it, each build downloads again, and an image whose remote URL
   * has expired stays remote. Give a persistent one (the loader keeps it next to its cache).
   */
  cache?: DownloadCache;
  /**
   * The fetch function that downloads, e.g. `globalThis.fetch`. Required: the caller decides how
   * the build reaches the network (the loader passes its service's, which knows the offline emulator).
   */
  fetch: typeof globalThis.fetch;
}

export const DEFAULT_MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 20_000;
export const DEFAULT_DOWNLOAD_CONCURRENCY = 4;
const whole = (what: string) => {
  const message = `must be a whole number of ${what} greater than 0`;
  return z.number({ error: message }).int({ error: message }).positive({ error: message });
};
const DIR_RULE = 'must be a directory path, e.g. "public/images/articles"';
const PUBLIC_PATH_RULE = 'must be a URL path such as "/images/articles/"';

/** The rules of the `downloadImages` options. */
export const downloadImagesOptionsSchema = optionsObject({
  dir: z.string({ error: DIR_RULE }).min(1, { error: DIR_RULE }),
  publicPath: z.string({ error: PUBLIC_PATH_RULE }).min(1, { error: PUBLIC_PATH_RULE }),
  fetch: rule<typeof globalThis.fetch>((value) => (typeof value === 'function' ? undefined : 'is required: the fetch function to download with, e.g. globalThis.fetch')),
  maxBytes: whole('bytes').optional(),
  timeoutMs: whole('milliseconds').optional(),
  concurrency: whole('downloads').optional(),
  allowPrivateHosts: z.boolean({ error: 'must be true or false' }).optional(),
  cache: storeRule<DownloadCache>('{ get(url), set(url, fileName) }').optional(),
});

