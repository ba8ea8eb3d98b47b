// Our errors as Astro prints them: the message once, with no empty stack section and no second copy inside a wrapper.
import type { ArticleLoaderError } from '../errors.js';

/**
 * Marks `error` so Astro prints it as it is. Astro rethrows an error whose `type` is `AstroError`
 * unchanged, where it would wrap anything else (its message again under "Caused by:"), and prints a
 * "Stack trace:" section for any non-empty `stack`: ours would only point into this package, so it
 * is kept only when debug output is on (`astro --verbose` sets DEBUG).
 */
export function forAstro<E extends ArticleLoaderError>(error: E, env: NodeJS.ProcessEnv = process.env): E {
  Object.defineProperty(error, 'type', { value: 'AstroError', configurable: true, enumerable: false, writable: true });
  if ((env.DEBUG ?? '').trim() === '') error.stack = '';
  return error;
}
