// Regenerating on purpose: which articles may be (finished ones only) and what it would cost, for the CLI's `regenerate` and the dev toolbar's Regenerate alike.
import { ArticleLoaderError } from '../errors.js';
import type { LockFile } from './lock-file.js';
import { planSync, type CacheIndex, type PlanOptions, type SyncPlan, type SyncSpec } from './plan.js';

/**
 * Each slug must have a finished article in the lock file; anything else is refused before a
 * request, saying what to do instead. The slugs are assumed to be the manifest's: callers say
 * "not a slug of…" in their own terms (the CLI with did-you-mean).
 */
export function checkRegenerable(slugs: readonly string[], lock: LockFile): void {
  for (const slug of slugs) {
    const status = lock.articles[slug]?.status;
    if (status === 'finished') continue;
    const advice =
      status === 'failed'
        ? `create it again with: astro-article-loader sync --retry-failed=${slug}`
        : status === undefined
          ? 'it has no article yet: sync creates it'
          : status === 'pending'
            ? 'it is still being written: sync waits for it'
            : `its create had an unknown outcome: see astro-article-loader plan (adopt, or --retry-unknown=${slug})`;
    throw new ArticleLoaderError('regenerate_not_finished', `"${slug}" has no finished article to regenerate; ${advice}. Nothing was created.`);
  }
}

/** The plan of regenerating `slugs` (checked first): the creates it pays for and their estimated words. */
export function regenerationPlan(specs: readonly SyncSpec[], slugs: readonly string[], lock: LockFile, cacheIndex: CacheIndex, options: Omit<PlanOptions, 'regenerate'>): SyncPlan {
  checkRegenerable(slugs, lock);
  return planSync(specs.filter((spec) => slugs.includes(spec.slug)), lock, cacheIndex, { ...options, regenerate: slugs, manifestSlugs: specs.map((spec) => spec.slug) });
}
