// Vite's `vite:env` debug log prints every environment variable, the API key included: say so before it does.
import { loaderRuntime } from './runtime.js';

/** The debug namespace whose log dumps the environment (vitejs/vite#1592: by design, so no loader can stop it). */
const ENV_NAMESPACE = 'vite:env';

/**
 * Whether a `DEBUG` value turns on `vite:env`, read as the `debug`/`obug` packages read it: names
 * separated by commas or spaces, `*` matching anything, a leading `-` excluding.
 */
export function debugPrintsEnv(debug: string | undefined): boolean {
  const patterns = (debug ?? '').trim().split(/[\s,]+/).filter((pattern) => pattern !== '');
  const matches = (pattern: string): boolean => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(ENV_NAMESPACE);
  if (patterns.some((pattern) => pattern.startsWith('-') && matches(pattern.slice(1)))) return false;
  return patterns.some((pattern) => !pattern.startsWith('-') && matches(pattern));
}

export const DEBUG_ENV_WARNING =
  'DEBUG turns on Vite\'s "vite:env" log (astro --verbose sets DEBUG=astro:*,vite:*), which prints every environment variable: ' +
  'this log will contain your API key (ARTICLES_API_KEY); don\'t share it. For debug lines without it, run without --verbose and set ' +
  'DEBUG=astro:*,vite:*,-vite:env (or just DEBUG=astro:*).';

/**
 * Logs DEBUG_ENV_WARNING once per process (the integration and every loader call this) when DEBUG
 * exposes the environment. Vite dumps it while it loads astro.config, before any of our code runs,
 * so this comes as early as we can, and `again` repeats it where a log is copied from: its end.
 */
export function warnWhenDebugPrintsEnv(warn: (message: string) => void, options: { again?: boolean; env?: NodeJS.ProcessEnv } = {}): void {
  if (!debugPrintsEnv((options.env ?? process.env).DEBUG)) return;
  const runtime = loaderRuntime();
  if (runtime.debugEnvWarned === true && options.again !== true) return;
  runtime.debugEnvWarned = true;
  warn(DEBUG_ENV_WARNING);
}
