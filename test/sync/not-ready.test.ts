import { describe, expect, it } from 'vitest';
import { notReadyAdvice, notReadyLines, notReadyMessage, type NotReadyArticle } from '../../src/sync/index.js';

const error = { code: 'generation_failed', message: 'the service gave up' };
const article = (slug: string, status: NotReadyArticle['status']): NotReadyArticle => ({ slug, keyword: slug.replace(/-/g, ' '), status, error });

describe('not-ready articles', () => {
  it('should promise a resume only for articles with an id that are still being written', () => {
    expect(notReadyAdvice([article('a', 'pending')])).toMatch(/next build resumes them/);
    for (const status of ['failed', 'unknown', undefined] as const) expect(notReadyAdvice([article('a', status)])).not.toMatch(/resumes/);
    expect(notReadyAdvice([article('a', 'failed')])).toMatch(/only when asked \(retryFailed/);
    expect(notReadyAdvice([article('a', 'unknown')], 'above')).toMatch(/adopted or paid for again \(see the list above\)/);
  });

  it('should list at most 20 articles and count the rest', () => {
    const many = Array.from({ length: 23 }, (_, index) => article(`slug-${index}`, 'failed'));
    const lines = notReadyLines(many);
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('  - slug-0: the service gave up (generation_failed)');
    expect(lines.at(-1)).toBe('  - … and 3 more');
  });

  it('should give each unknown create its adopt command below the list, unless the caller printed it above', () => {
    const articles = [article('best-shoes', 'unknown'), article('trail-shoes', 'failed')];
    const below = notReadyMessage(articles, '2 articles are not ready:', 'Hint.');
    expect(below).toContain('npx astro-article-loader adopt best-shoes <articleId>');
    expect(below).not.toContain('adopt trail-shoes');
    expect(notReadyMessage(articles, '2 articles are not ready:', 'Hint.', 'above')).not.toContain('adopt best-shoes');
  });
});
