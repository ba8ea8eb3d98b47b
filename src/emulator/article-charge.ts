// What a new article costs at creation: the deterministic writer's words (written at once), or the model writer's estimate (reserved).
import type { ArticleRecord } from './article-store.js';
import { draftOf } from './article-output.js';
import type { EmulatorContext } from './context.js';
import type { WrittenArticle } from './placeholder-writer/index.js';

export interface CreationCharge {
  /** Words billed (deterministic writer) or reserved until the words written are known (model writer). */
  words: number;
  generatedImages: number;
  /** Steps the article walks through (where an injected failure may strike). */
  steps: number;
  /** The deterministic writer's draft, kept for the worker; undefined for the model writer. */
  draft: WrittenArticle | undefined;
}

/** The charge of an article about to be created. */
export function creationCharge(ctx: Pick<EmulatorContext, 'accounts' | 'articles' | 'modelWriter'>, record: Pick<ArticleRecord, 'account' | 'request' | 'flaws'>): CreationCharge {
  if (ctx.modelWriter !== undefined) {
    const estimate = ctx.modelWriter.estimate(record.request);
    return { words: estimate.words, generatedImages: 0, steps: estimate.steps, draft: undefined };
  }
  const draft = draftOf(ctx, record);
  return { words: draft.words, generatedImages: draft.generatedImages, steps: draft.steps.length, draft };
}
