// An entry with no parameters of its own takes its request from the defaults of its article type; the schema runs once per
// type for those (resolve-manifest.ts, `defaultRequests`). Every request must still be exactly what the schema makes of that
// entry's own input, and no entry's keyword or parameters may leak into another's.
import { describe, expect, it } from 'vitest';
import { articleRequestSchema } from '../../src/contract/request-schema.js';
import { resolveInlineManifest } from '../../src/manifest/index.js';

describe('requests made from the defaults alone', () => {
  it('should equal the schema parse of each entry, across article types, own parameters and keywords with spaces around', () => {
    const articles = [
      'espresso at home',
      '  trimmed keyword  ',
      { keyword: 'best grinders', articleType: 'listicle' },
      'pour over basics',
      { keyword: 'cold brew', includeFaq: false },
      { keyword: 'top kettles', articleType: 'listicle' },
      { keyword: 'milk frothing', polishSettings: { humanize: true } },
      'latte art',
    ];
    const { specs } = resolveInlineManifest({ defaults: { includeFaq: true, language: 'German', autoPolish: true, polishSettings: { humanize: false } }, articles }, 'test');
    expect(specs).toHaveLength(articles.length);
    for (const [i, spec] of specs.entries()) {
      const entry = typeof articles[i] === 'string' ? { keyword: articles[i] } : (articles[i] as Record<string, unknown>);
      const { keyword, ...own } = entry as { keyword: string };
      const input = { includeFaq: true, language: 'German', autoPolish: true, ...own, polishSettings: { humanize: false, ...((own as { polishSettings?: object }).polishSettings ?? {}) }, targetKeyword: keyword.trim() };
      expect(spec.request, spec.keyword).toEqual(articleRequestSchema.parse(input));
      // The same members in the same order: the canonical text, and so the request hash, cannot tell the two apart.
      expect(Object.keys(spec.request)).toEqual(Object.keys(articleRequestSchema.parse(input)));
    }
    expect(specs.map((spec) => spec.request.targetKeyword)).toEqual(['espresso at home', 'trimmed keyword', 'best grinders', 'pour over basics', 'cold brew', 'top kettles', 'milk frothing', 'latte art']);
    expect(specs.map((spec) => spec.request.includeFaq)).toEqual([true, true, true, true, false, true, true, true]);
    expect(specs.map((spec) => spec.request.polishSettings?.humanize)).toEqual([false, false, false, false, false, false, true, false]);
    expect(specs.map((spec) => spec.request.articleType)).toEqual(['blog_post', 'blog_post', 'listicle', 'blog_post', 'blog_post', 'listicle', 'blog_post', 'blog_post']);
    // Each request is its own frozen object: two entries never share one.
    expect(new Set(specs.map((spec) => spec.request)).size).toBe(specs.length);
    for (const spec of specs) expect(Object.isFrozen(spec.request)).toBe(true);
  });

  it('should still report an entry whose keyword is bad, after others took the defaults', () => {
    expect(() => resolveInlineManifest({ defaults: { includeFaq: true }, articles: ['fine keyword', { keyword: '   ' }] }, 'test')).toThrow(/keyword/);
  });
});
