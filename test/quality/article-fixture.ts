// A clean article about pour over coffee and the planted variants the quality tests check.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { articleRequestSchema, type ArticleRequest, type ArticleRequestInput } from '../../src/contract/request-schema.js';
import type { ArticleToCheck } from '../../src/quality/index.js';

export const CLEAN_HTML = readFileSync(path.join(import.meta.dirname, 'fixtures/clean-article.html'), 'utf8');
export const CLEAN_TITLE = 'How to Brew Pour Over Coffee at Home';
export const COLLECTION = {
  paths: ['/articles/how-to-brew-pour-over-coffee/', '/articles/french-press-vs-pour-over/', '/articles/coffee-grinders/'],
};

export function request(input: Partial<ArticleRequestInput> = {}): ArticleRequest {
  const length = input.articleType === undefined || input.articleType === 'blog_post' ? { articleLength: 'shorter' as const } : {};
  return articleRequestSchema.parse({ targetKeyword: 'how to brew pour over coffee', ...length, ...input });
}

/** The clean article, with any part replaced. */
export function article(overrides: Partial<ArticleToCheck> = {}): ArticleToCheck {
  return { slug: 'how-to-brew-pour-over-coffee', html: CLEAN_HTML, title: CLEAN_TITLE, request: request(), collection: COLLECTION, ...overrides };
}

/** The clean HTML with `extra` inserted before the conclusion. */
export function withBlock(extra: string): string {
  return CLEAN_HTML.replace('<h2 id="conclusion">', `${extra}\n<h2 id="conclusion">`);
}
