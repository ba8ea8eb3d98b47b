// Prune and verify: the explicit clean-up of orphans and unreferenced cache files, and the CI consistency check.
import { CorruptLockError } from './errors.js';
import { OutputCache, type CacheProblem } from './output-cache.js';
import { editProblems, editsDirFor, type EditProblem } from './edits.js';
import { inspectLockFile, readLockFile, resolveLockPaths, type LockFile } from './lock-file.js';
import type { LockIntegrityProblem } from './lock-integrity.js';
import { adoptCommand, retryUnknownCommand, unknownCreatesExplanation } from './unknown-creates.js';
import { LockSession } from './lock-session.js';
import { approvalProblems, type ApprovalProblem } from './lock-entry-records.js';
import { movedEntries, recordMoves, type SyncSpec } from './plan.js';

export interface LockState {
  lockFile: string;
  cacheDir: string;
  lock: LockFile;
  cache: OutputCache;
}

/**
 * Reads the lock file (without the inter-process lock: writes are atomic) and opens the cache
 * beside it. `checkOutputs`: also check that every cached output belongs to the entry that points
 * at it (from the heads of the files), so `plan` and `sync` stop on swapped outputs as a build does.
 */
export async function readLockState(lockFileOrDir: string, options: { checkOutputs?: boolean } = {}): Promise<LockState> {
  const { lockFile, cacheDir } = resolveLockPaths(lockFileOrDir);
  const state = { lockFile, cacheDir, lock: await readLockFile(lockFile), cache: new OutputCache(cacheDir) };
  if (options.checkOutputs === true) {
    const problems = await state.cache.ownerProblems(state.lock);
    if (problems.length > 0) throw new CorruptLockError(lockFile, problems);
  }
  return state;
}

export interface PruneResult {
  /** Lock entries removed (or that would be, with `dryRun`): slugs no longer in the manifest. */
  orphans: string[];
  /** Entries recorded under their new slug instead (or that would be): the same request under a slug that changed. */
  moved: { from: string; to: string }[];
  /** Cache files deleted (or that would be): outputs nothing refers to, leftovers of interrupted writes. */
  files: string[];
}

/**
 * Removes orphaned lock entries (slugs not in `specs`) and then the cache files no entry refers to.
 * Under the inter-process lock, so a running build never loses an entry it is writing.
 */
export async function pruneArticles(options: { specs: readonly Pick<SyncSpec, 'slug' | 'request'>[]; lockFile: string; dryRun?: boolean }): Promise<PruneResult> {
  const { lockFile, cacheDir } = resolveLockPaths(options.lockFile);
  const cache = new OutputCache(cacheDir);
  const keep = new Set(options.specs.map((spec) => spec.slug));
  const session = new LockSession(lockFile, {});
  let orphans: string[] = [];
  let moved: { from: string; to: string }[] = [];
  let files: string[] = [];
  const prune = async (lock: LockFile): Promise<boolean> => {
    // An entry whose slug changed with its request unchanged is the new slug's article (see plan.ts): moved, never removed.
    moved = [...movedEntries(options.specs, lock, keep)].map(([to, from]) => ({ from, to }));
    if (options.dryRun !== true) recordMoves(lock, moved);
    const movedFrom = new Set(moved.map((move) => move.from));
    orphans = Object.keys(lock.articles).filter((slug) => !keep.has(slug) && !movedFrom.has(slug)).sort();
    if (options.dryRun === true) {
      const remaining: LockFile = { ...lock, articles: Object.fromEntries(Object.entries(lock.articles).filter(([slug]) => keep.has(slug) || movedFrom.has(slug))) };
      files = await cache.unreferenced(remaining);
      return false;
    }
    for (const slug of orphans) delete lock.articles[slug];
    return orphans.length > 0 || moved.length > 0;
  };
  if (options.dryRun === true) {
    await prune(await session.snapshot());
    return { orphans, moved, files };
  }
  await session.exclusive(async (lock) => {
    if (await prune(lock)) await session.update(() => true);
    // Still under the lock: no build can add a reference to a file between the check and the delete.
    files = await cache.prune(lock);
  });
  return { orphans, moved, files };
}

/** One thing `verify` found. `warning`s (an unreferenced cache file) don't make it fail. */
export interface VerifyProblem {
  code: CacheProblem['code'] | LockIntegrityProblem['code'] | EditProblem['code'] | ApprovalProblem['code'] | 'unresolved_unknown';
  severity: 'error' | 'warning';
  message: string;
  file?: string;
  slug?: string;
  line?: number;
}

/**
 * Every problem in the lock file and between it and the cache (empty when consistent): integrity
 * (duplicate keys, hashes, outputs of another article), creates whose outcome is still unknown,
 * missing or damaged outputs, leftovers. Reads one cache file at a time. A lock file that does not
 * parse throws (CorruptLockError, UnsupportedLockVersionError).
 */
export async function verifyArticles(lockFileOrDir: string): Promise<{ lockFile: string; cacheDir: string; entries: number; problems: VerifyProblem[] }> {
  const { lockFile, cacheDir } = resolveLockPaths(lockFileOrDir);
  const { lock, problems: integrity } = await inspectLockFile(lockFile);
  const problems: VerifyProblem[] = integrity.map((problem) => ({ ...problem, severity: 'error', file: lockFile }));
  for (const [slug, entry] of Object.entries(lock.articles)) {
    if (entry.status !== 'unknown') continue;
    problems.push({
      code: 'unresolved_unknown',
      severity: 'error',
      file: lockFile,
      slug,
      message: `"${slug}" (${JSON.stringify(entry.keyword)}): ${unknownCreatesExplanation(1)} Here: ${adoptCommand(slug)}, or ${retryUnknownCommand(slug)}.`,
    });
  }
  problems.push(...(await new OutputCache(cacheDir).verify(lock)));
  problems.push(...(await editProblems(editsDirFor(lockFile), lock)));
  problems.push(...approvalProblems(lock).map((problem) => ({ ...problem, file: lockFile })));
  return { lockFile, cacheDir, entries: Object.keys(lock.articles).length, problems };
}
