// The dev toolbar's Regenerate for one collection: the CLI's rule and estimate, this collection's budget and frozen mode, and the create under the process lock.
import { ArticleLoaderError } from '../errors.js';
import { blockedCreates, readLockState, regenerationPlan, syncArticles } from '../sync/index.js';
import { openService, readManifest } from './build-pass.js';
import type { CollectionScope } from './collection-scope.js';
import { syncOptions } from './pass-context.js';
import type { RegenerationAnswer } from './runtime.js';

/** The answer before anything is created. */
export type RegenerationEstimate = Omit<RegenerationAnswer, 'started'>;

/** The estimate for `slug`, refused (an ArticleLoaderError saying what to do) for a slug not in the manifest or without a finished article. */
export async function regenerationEstimate(scope: CollectionScope, slug: string): Promise<RegenerationEstimate> {
  const { manifest } = await readManifest(scope);
  const { lockFile } = scope.paths();
  if (!manifest.specs.some((spec) => spec.slug === slug)) {
    throw new ArticleLoaderError('regenerate_unknown_slug', `"${slug}" is not an article of the collection "${scope.context.collection}"; nothing was created.`);
  }
  const state = await readLockState(lockFile, { checkOutputs: true });
  const service = scope.options.service.mode === 'offline' ? 'emulator' : 'remote';
  const plan = regenerationPlan(manifest.specs, [slug], state.lock, await state.cache.index(), { idempotentCreates: scope.options.idempotentCreates, service });
  const blocked = blockedCreates(plan, scope.options, lockFile);
  return { slug, estimatedWords: plan.estimatedWords, offline: service === 'emulator', blocked: blocked === undefined ? null : blocked.message };
}

/**
 * Creates the new article for `slug` with this collection's service and rules (the engine
 * refuses it again under the process lock when frozen or over budget) and returns without
 * waiting: the pass that follows serves the current article and waits for the new one.
 */
export async function createRegeneration(scope: CollectionScope, slug: string): Promise<void> {
  const { manifest } = await readManifest(scope);
  const { lockFile } = scope.paths();
  const service = openService(scope);
  try {
    // Only the slug, as the CLI's regenerate: the next pass creates whatever else the manifest lacks.
    const specs = manifest.specs.filter((spec) => spec.slug === slug);
    const result = await syncArticles({ ...syncOptions(scope, specs, lockFile, service, manifest.budget), regenerate: [slug], manifestSlugs: manifest.specs.map((spec) => spec.slug), wait: false });
    const article = result.articles.find((a) => a.slug === slug);
    if (article?.error !== undefined) throw new ArticleLoaderError(article.error.code, `"${slug}" was not regenerated: ${article.error.message}`);
  } finally {
    await service.close();
  }
}
