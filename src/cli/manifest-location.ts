// Which manifest and lock file a command works on: the flags, else the conventional names in the working directory.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { lockPathsForManifest, resolveLockPaths } from '../sync/index.js';
import type { ParsedFlags } from './command-line.js';
import { UsageError } from './usage-error.js';

/** Looked for in this order when `--manifest` is not given. */
export const DEFAULT_MANIFEST_NAMES = ['articles.yaml', 'articles.yml', 'articles.json', 'articles.csv'] as const;

/**
 * The manifest to read: `--manifest` as given (loadManifest reports a missing file), else the one
 * conventional file in `cwd`. Two of them (articles.yaml and articles.csv) is an error rather
 * than a guess: the wrong one could create paid articles.
 * `required: false` returns undefined when there is none.
 */
export async function locateManifest(cwd: string, given: string | undefined, options: { required: boolean }): Promise<string | undefined> {
  if (given !== undefined) return path.resolve(cwd, given);
  const found: string[] = [];
  for (const name of DEFAULT_MANIFEST_NAMES) if (existsSync(path.join(cwd, name))) found.push(name);
  if (found.length > 1) {
    throw new UsageError(`found ${found.join(' and ')} in ${cwd}; say which manifest to use with --manifest <file>.`, 'manifest_ambiguous');
  }
  if (found.length === 1) return path.join(cwd, found[0]!);
  if (!options.required) return undefined;
  throw new UsageError(
    `no manifest found: looked for ${DEFAULT_MANIFEST_NAMES.join(', ')} in ${cwd}. ` +
      'Pass one with --manifest <file>, or create articles.yaml, e.g.:\n' +
      '  articles:\n    - best hiking boots for wide feet\n    - keyword: 7 easy houseplants\n      articleType: listicle',
    'manifest_not_found',
  );
}

/**
 * The lock file and cache: `--lock-file`, else named after the manifest and beside it
 * (`guides.yaml` → `guides.lock.json`, `guides.cache/`), else `articles.lock.json` in `cwd`.
 */
export function locateLock(cwd: string, lockFlag: string | undefined, manifest: string | undefined): { lockFile: string; cacheDir: string } {
  if (lockFlag !== undefined) return resolveLockPaths(path.resolve(cwd, lockFlag));
  return manifest === undefined ? resolveLockPaths(cwd) : lockPathsForManifest(manifest);
}

/**
 * The lock file and cache of a command that never reads the manifest: `--lock-file`, else next to
 * the conventional manifest in `cwd` (looked for only then, and not required), else in `cwd`.
 */
export async function locateLockOnly(cwd: string, flags: ParsedFlags): Promise<{ lockFile: string; cacheDir: string }> {
  const lockFlag = flags.string('lock-file');
  const manifest = lockFlag === undefined ? await locateManifest(cwd, flags.string('manifest'), { required: false }) : undefined;
  return locateLock(cwd, lockFlag, manifest);
}

/** A path as the user would type it: relative to `cwd` when inside it. */
export function shownPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
