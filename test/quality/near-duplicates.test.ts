// findNearDuplicates: MinHash + LSH finds a planted pair among 1,000 articles, measures it exactly, and reports nothing else.
import { describe, expect, it } from 'vitest';
import { articlePairs, BUCKET_WINDOW, certainAgreement, findNearDuplicates, findSignedNearDuplicates, jaccard, minimumAgreement, nearDuplicateSignature, shinglesOf } from '../../src/quality/near-duplicates.js';
import { nearDuplicateFindings, resolveQualityOptions } from '../../src/quality/index.js';

/** A seeded generator, so every run writes the same 1,000 articles. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY = Array.from({ length: 3_000 }, (_, i) => `w${i.toString(36)}`);

function articleText(next: () => number, words: number): string[] {
  return Array.from({ length: words }, () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]!);
}

function collection(count: number): { slug: string; html: string }[] {
  const next = random(25);
  const articles = Array.from({ length: count }, (_, i) => ({ slug: `article-${i}`, words: articleText(next, 400) }));
  // The planted pair: article 883 is article 417 with one word in twenty changed.
  if (count > 883) {
    const copy = [...articles[417]!.words];
    for (let i = 0; i < copy.length; i += 20) copy[i] = 'changed';
    articles[883] = { slug: 'article-883', words: copy };
  }
  return articles.map(({ slug, words }) => ({ slug, html: `<p>${words.join(' ')}</p>` }));
}

describe('findNearDuplicates', () => {
  it('should find the planted pair among 1,000 articles, and only it', () => {
    const pairs = findNearDuplicates(collection(1_000), 0.6);
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({ slug: 'article-883', otherSlug: 'article-417' });
    expect(pairs[0]!.similarity).toBeGreaterThan(0.6);
    expect(pairs[0]!.similarity).toBeLessThan(1);
  });

  it('should measure a pair near the threshold exactly, not estimate it', () => {
    const articles = collection(1_000);
    const [pair] = findNearDuplicates(articles, 0.6);
    const text = (slug: string) => articles.find((a) => a.slug === slug)!.html.replace(/<[^>]+>/g, ' ');
    expect(pair!.similarity).toBe(jaccard(shinglesOf(text('article-883')), shinglesOf(text('article-417'))));
  });

  it('should estimate, without reading their texts again, a pair whose signatures agree beyond doubt', () => {
    const articles = collection(40);
    // Article 31 is article 7 with one word changed: about 99% alike, far above 0.6.
    const words = articles[7]!.html.slice(3, -4).split(' ');
    words[200] = 'changed';
    articles[31] = { slug: 'article-31', html: `<p>${words.join(' ')}</p>` };
    const reads: string[] = [];
    const signed = articles.map((article) => ({ slug: article.slug, signature: nearDuplicateSignature(article.html), html: () => (reads.push(article.slug), article.html) }));
    const [pair, ...others] = findSignedNearDuplicates(signed, 0.6);
    expect(others).toEqual([]);
    expect(pair).toMatchObject({ slug: 'article-31', otherSlug: 'article-7', estimated: true });
    const exact = jaccard(shinglesOf(articles[31]!.html.slice(3, -4)), shinglesOf(articles[7]!.html.slice(3, -4)));
    expect(Math.abs(pair!.similarity - exact)).toBeLessThan(0.06);
    expect(reads).toEqual([]);
    expect(nearDuplicateFindings([pair!], resolveQualityOptions())[0]!.message).toMatch(/^"article-31" and "article-7" are about \d+% alike/);
  });

  it('should call a pair certain only far above the threshold, and measure it exactly when unsure', () => {
    // 96 slots: at 0.6 a pair agrees in 57.6 on average (σ ≈ 4.8); certainty asks for more than 4.5σ above it.
    expect(certainAgreement(0.6)).toBeGreaterThan(57.6 + 4.5 * 4.8);
    expect(certainAgreement(0.6)).toBeLessThanOrEqual(96);
    expect(minimumAgreement(0.6)).toBeLessThan(certainAgreement(0.6));
    expect(certainAgreement(0.95)).toBe(97);
  });

  it('should leave out a pair below the threshold', () => {
    expect(findNearDuplicates(collection(1_000), 0.95)).toEqual([]);
  });

  it('should name both slugs and the similarity in the finding, on the later article', () => {
    const findings = nearDuplicateFindings([{ slug: 'b', otherSlug: 'a', similarity: 0.834 }], resolveQualityOptions());
    expect(findings).toEqual([{ slug: 'b', code: 'near_duplicate', severity: 'warning', message: expect.stringMatching(/^"b" and "a" are 83% alike/) }]);
  });

  it('should give an article its five most alike pairs, the last saying how many more, as every code is capped', () => {
    const pairs = Array.from({ length: 8 }, (_, i) => ({ slug: 'z', otherSlug: `a${i}`, similarity: 0.6 + i / 100 }));
    const findings = nearDuplicateFindings([...pairs, { slug: 'y', otherSlug: 'a0', similarity: 0.7 }], resolveQualityOptions());
    const own = findings.filter((finding) => finding.slug === 'z');
    expect(own.map((finding) => /and "(a\d)"/.exec(finding.message)?.[1])).toEqual(['a7', 'a6', 'a5', 'a4', 'a3']);
    expect(own[4]!.message).toMatch(/\(and 3 more like it\)$/);
    expect(findings.filter((finding) => finding.slug === 'y')).toHaveLength(1);
  });

  it('should give no finding when near_duplicate is off', () => {
    expect(nearDuplicateFindings([{ slug: 'b', otherSlug: 'a', similarity: 0.9 }], resolveQualityOptions({ codes: { near_duplicate: 'off' } }))).toEqual([]);
  });

  it('should propose each article of a bucket larger than the window with the articles just before it, and say its count is a lower bound', () => {
    // One text copied many times, each copy with a word of its own: every band puts all the copies in one bucket.
    const next = random(7);
    const words = articleText(next, 400);
    const copies = BUCKET_WINDOW * 2;
    const articles = Array.from({ length: copies }, (_, i) => ({ slug: `copy-${String(i).padStart(3, '0')}`, html: `<p>${words.join(' ')} own${i}</p>` }));
    const byArticle = new Map(articlePairs(findNearDuplicates(articles, 0.6)).map((item) => [item.slug, item]));
    // Every copy but the first is flagged: recall per article is kept.
    expect(byArticle.size).toBe(copies - 1);
    // Within the window, every pair and an exact count.
    const early = byArticle.get('copy-010')!;
    expect(early.pairs.length + early.more).toBe(10);
    expect(early.windowed).toBeUndefined();
    // Past it, only the window of each band's bucket: the last copy meets at least the BUCKET_WINDOW copies before it, not all of them.
    const last = byArticle.get(`copy-${String(copies - 1).padStart(3, '0')}`)!;
    expect(last.windowed).toBe(true);
    expect(last.pairs.length + last.more).toBeGreaterThanOrEqual(BUCKET_WINDOW);
    expect(last.pairs.length + last.more).toBeLessThan(copies - 1);
    const findings = nearDuplicateFindings(findNearDuplicates(articles, 0.6), resolveQualityOptions()).filter((finding) => finding.slug === last.slug);
    expect(findings.at(-1)!.message).toMatch(new RegExp(`\\(and at least ${last.more} more like it\\)$`));
  });
});
