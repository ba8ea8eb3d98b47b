import { describe, expect, it } from 'vitest';
import { articleRequestSchema, type ArticleRequestInput } from '../../src/contract/request-schema.js';
import { writeArticle } from '../../src/emulator/placeholder-writer/index.js';
import { countHtmlWords, htmlToText } from '../../src/contract/word-count.js';

function write(input: Record<string, unknown>) {
  return writeArticle(articleRequestSchema.parse(input as ArticleRequestInput));
}

function headings(html: string, level: number): string[] {
  return [...html.matchAll(new RegExp(`<h${level}\\b[^>]*>([\\s\\S]*?)</h${level}>`, 'g'))].map((m) => htmlToText(m[1] ?? '').trim());
}

function paragraphsText(html: string): string {
  return [...html.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/g)].map((m) => htmlToText(m[1] ?? '')).join('\n');
}

describe('writer', () => {
  it('should write the same HTML for the same request', () => {
    const a = write({ targetKeyword: 'sourdough bread', multimediaOption: 'auto', includeFaq: true, autoPolish: true });
    const b = write({ includeFaq: true, autoPolish: true, multimediaOption: 'auto', targetKeyword: 'sourdough bread' });
    expect(b.html).toBe(a.html);
    expect(b.polishedHtml).toBe(a.polishedHtml);
  });

  it('should write different HTML for a different keyword', () => {
    expect(write({ targetKeyword: 'sourdough bread' }).html).not.toBe(write({ targetKeyword: 'rye bread' }).html);
  });

  it('should start with an h1 title and use the supplied title when given', () => {
    expect(headings(write({ targetKeyword: 'composting' }).html, 1)).toHaveLength(1);
    expect(headings(write({ targetKeyword: 'composting', title: 'My Own Title' }).html, 1)).toEqual(['My Own Title']);
  });

  it('should write about 800 words for short and about 3,000 for longer', () => {
    const short = write({ targetKeyword: 'home office ergonomics', articleLength: 'short' }).words;
    const longer = write({ targetKeyword: 'home office ergonomics', articleLength: 'longer' }).words;
    expect(short).toBeGreaterThan(600);
    expect(short).toBeLessThan(1100);
    expect(longer).toBeGreaterThan(2500);
    expect(longer).toBeLessThan(3600);
  });

  it('should report the words a reader sees in the HTML', () => {
    const article = write({ targetKeyword: 'electric bikes' });
    expect(article.words).toBe(countHtmlWords(article.html));
  });

  it('should write numberOfSections H2 sections when articleLength is custom', () => {
    const article = write({ targetKeyword: 'tea', articleLength: 'custom', numberOfSections: 3, shouldCiteSources: false });
    expect(article.steps.filter((s) => s.startsWith('Writing section'))).toEqual([
      expect.stringMatching(/^Writing section 1 of 3: /),
      expect.stringMatching(/^Writing section 2 of 3: /),
      expect.stringMatching(/^Writing section 3 of 3: /),
    ]);
  });

  it('should turn extraOutlinePrompt lines into H2 sections and indented lines into sub-sections', () => {
    const article = write({ targetKeyword: 'tea', extraOutlinePrompt: 'Green Tea\n  Matcha\n  Sencha\nBlack Tea\n\n- Herbal Tea', shouldCiteSources: false });
    const h2 = headings(article.html, 2);
    expect(h2).toEqual(expect.arrayContaining(['Green Tea', 'Black Tea', 'Herbal Tea']));
    const h3orH4 = [...headings(article.html, 3), ...headings(article.html, 4)];
    expect(h3orH4).toEqual(expect.arrayContaining(['Matcha', 'Sencha']));
    expect(h2).not.toContain('Matcha');
  });

  it('should follow outline sections and their subsections', () => {
    const article = write({ targetKeyword: 'tea', outline: ['Origins', { title: 'Brewing', subsections: ['Water', { title: 'Time' }] }] });
    expect(headings(article.html, 2)).toEqual(expect.arrayContaining(['Origins', 'Brewing']));
    expect([...headings(article.html, 3), ...headings(article.html, 4)]).toEqual(expect.arrayContaining(['Water', 'Time']));
  });

  it('should add a FAQ section only with includeFaq', () => {
    expect(headings(write({ targetKeyword: 'tea', includeFaq: true }).html, 2)).toContain('Frequently Asked Questions');
    expect(headings(write({ targetKeyword: 'tea' }).html, 2)).not.toContain('Frequently Asked Questions');
  });

  it('should add Key Takeaways only with includeKeyTakeaways', () => {
    expect(write({ targetKeyword: 'tea', includeKeyTakeaways: true }).html).toContain('Key Takeaways');
    expect(write({ targetKeyword: 'tea' }).html).not.toContain('Key Takeaways');
  });

  it('should leave out the introduction and the conclusion when disabled', () => {
    const on = write({ targetKeyword: 'tea' });
    const off = write({ targetKeyword: 'tea', disableIntroduction: true, disableConclusion: true });
    expect(on.steps).toEqual(expect.arrayContaining(['Writing the introduction', 'Writing the conclusion']));
    expect(off.steps).not.toContain('Writing the introduction');
    expect(off.steps).not.toContain('Writing the conclusion');
    expect(headings(off.html, 2)).not.toContain('Conclusion');
  });

  it('should place maxImages generated images with multimediaOption images', () => {
    const article = write({ targetKeyword: 'tea', multimediaOption: 'images', maxImages: 2 });
    expect(article.generatedImages).toBe(2);
    expect(article.html.match(/<img\b/g)).toHaveLength(2);
    expect(write({ targetKeyword: 'tea', multimediaOption: 'none', maxImages: 2 }).generatedImages).toBe(0);
  });

  it('should embed maxVideos YouTube iframes with multimediaOption videos', () => {
    const html = write({ targetKeyword: 'tea', multimediaOption: 'videos', maxVideos: 3 }).html;
    expect(html.match(/<iframe[^>]+src="https:\/\/www\.youtube\.com\/embed\/[\w-]{11}"/g)).toHaveLength(3);
  });

  it('should size images per imageSize and omit width/height on some', () => {
    const images = Array.from({ length: 6 }, (_, i) => write({ targetKeyword: `tea ${i}`, multimediaOption: 'images', maxImages: 4, imageSize: '16:9' }))
      .flatMap((a) => a.images);
    expect(images.every((image) => image.width === 1792 && image.height === 1008)).toBe(true);
    expect(images.some((image) => image.omitSize)).toBe(true);
    expect(images.some((image) => image.alt === null)).toBe(true);
  });

  it('should cite sources as external links, using urls when given, and not when shouldCiteSources is false', () => {
    const cited = write({ targetKeyword: 'tea', urls: ['https://example.com/tea-history'] }).html;
    expect(headings(cited, 2).concat(headings(cited, 3))).toContain('Sources');
    expect(cited).toContain('href="https://example.com/tea-history"');
    expect(write({ targetKeyword: 'tea', shouldCiteSources: false }).html).not.toMatch(/<h[23][^>]*>Sources</);
  });

  it('should take the listicle item count from the keyword', () => {
    const article = write({ targetKeyword: 'best 7 hiking trails', articleType: 'listicle' });
    expect(article.steps.filter((s) => s.startsWith('Writing item'))).toHaveLength(7);
    expect(article.html).toMatch(/>7\. [^<]+</);
    expect(article.html).not.toMatch(/>8\. /);
  });

  it('should write 10 items when the keyword states no count, and numberOfItems without automatic length', () => {
    expect(write({ targetKeyword: 'hiking trails', articleType: 'listicle' }).steps.filter((s) => s.startsWith('Writing item'))).toHaveLength(10);
    const fixed = write({ targetKeyword: 'best 7 hiking trails', articleType: 'listicle', enableAutomaticLength: false, numberOfItems: 4 });
    expect(fixed.steps.filter((s) => s.startsWith('Writing item'))).toHaveLength(4);
  });

  it('should leave out supplemental sections when enableSupplementalInformation is false', () => {
    const off = write({ targetKeyword: 'best 3 parks', articleType: 'listicle', enableSupplementalInformation: false });
    expect(off.steps.some((s) => s.startsWith('Writing supplemental'))).toBe(false);
    const on = write({ targetKeyword: 'best 3 parks', articleType: 'listicle' });
    expect(on.steps.some((s) => s.startsWith('Writing supplemental'))).toBe(true);
  });

  it('should write numRetailProducts product cards whose links carry the affiliateId', () => {
    const html = write({ targetKeyword: 'coffee grinders', articleType: 'retail_product_roundup', numRetailProducts: 4, affiliateId: 'mysite-20' }).html;
    expect(html.match(/class="product-card"/g)).toHaveLength(4);
    expect(html.match(/href="https:\/\/www\.amazon\.com\/dp\/B0[A-Z0-9]{8}\?tag=mysite-20"/g)).toHaveLength(4);
  });

  it('should link products to the retailDomain', () => {
    const html = write({ targetKeyword: 'kettles', articleType: 'retail_product_roundup', numRetailProducts: 1, retailDomain: 'amazon.de' }).html;
    expect(html).toMatch(/href="https:\/\/www\.amazon\.de\/dp\//);
  });

  it('should write a local places roundup with addresses and map links in the keyword city', () => {
    const html = write({ targetKeyword: 'best 3 bakeries in Berlin', articleType: 'local_places_roundup' }).html;
    expect(html.match(/google\.com\/maps\/search/g)).toHaveLength(3);
    expect(html).toContain('Berlin');
  });

  it('should embed the video of a video article', () => {
    const html = write({ targetKeyword: 'knife sharpening', articleType: 'video_article', videoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }).html;
    expect(html).toContain('src="https://www.youtube.com/embed/dQw4w9WgXcQ"');
  });

  it('should write pros and cons for a single product review, and its productId', () => {
    const html = write({ targetKeyword: 'kestrel kettle', articleType: 'retail_single_product_review', productId: 'B0TEST1234' }).html;
    expect(headings(html, 2)).toEqual(expect.arrayContaining(['Pros', 'Cons']));
    expect(html).toContain('B0TEST1234');
  });

  it('should write fewer sections in condensed review mode', () => {
    const full = write({ targetKeyword: 'kettle', articleType: 'retail_single_product_review' });
    const condensed = write({ targetKeyword: 'kettle', articleType: 'retail_single_product_review', enableCondensedMode: true });
    expect(condensed.words).toBeLessThan(full.words);
  });

  it('should link the original of a rewritten article', () => {
    const html = write({ targetKeyword: 'tea', articleType: 'rewrite_blog_post', articleUrl: 'https://example.com/old-post' }).html;
    expect(html).toContain('href="https://example.com/old-post"');
  });

  it('should write German, Spanish, French and Japanese headings and text', () => {
    expect(write({ targetKeyword: 'Tee', language: 'German', includeFaq: true }).html).toContain('Häufig gestellte Fragen');
    expect(write({ targetKeyword: 'té', language: 'Spanish', includeFaq: true }).html).toContain('Preguntas frecuentes');
    expect(write({ targetKeyword: 'thé', language: 'French', includeFaq: true }).html).toContain('Questions fréquentes');
    const japanese = write({ targetKeyword: 'お茶', language: 'Japanese' });
    expect(japanese.html).toContain('。');
    expect(japanese.words).toBeGreaterThan(300);
  });

  it('should write English with a note for a language it has no templates for', () => {
    const article = write({ targetKeyword: 'tè', language: 'Italian' });
    expect(article.writtenLanguage).toBe('English');
    expect(article.html).toContain('<!-- emulator: no templates for language "Italian"');
    // Said plainly in the visible text, once, near the top.
    expect(article.html).toContain('<p>This sample is in English: the emulator has no words for Italian.</p>');
    expect(article.html.split('the emulator has no words for')).toHaveLength(2);
  });

  it('should write in the requested point of view', () => {
    const text = (pointOfView: string) => paragraphsText(write({ targetKeyword: 'bread baking', pointOfView, articleLength: 'long' }).html);
    expect(text('first_person_singular')).toMatch(/\b(I|my|My)\b/);
    expect(text('first_person_plural')).toMatch(/\b(We|we|our|Our)\b/);
    expect(text('second_person')).toMatch(/\b(You|you)\b/);
    expect(text('third_person')).not.toMatch(/\b(I|my|My)\b/);
  });

  it('should write shorter sentences in 8th_grade readability mode', () => {
    const average = (readabilityMode: string) => {
      const sentences = paragraphsText(write({ targetKeyword: 'bread baking', readabilityMode }).html).split(/[.!?]\s/).filter((s) => s.trim() !== '');
      return sentences.reduce((sum, s) => sum + s.split(/\s+/).length, 0) / sentences.length;
    };
    expect(average('8th_grade')).toBeLessThan(average('default') * 0.75);
  });

  it('should leave polishedHtml null without autoPolish', () => {
    expect(write({ targetKeyword: 'tea' }).polishedHtml).toBeNull();
  });

  it('should split long paragraphs in the polished version', () => {
    const article = write({ targetKeyword: 'tea', autoPolish: true });
    const longest = (html: string) => Math.max(...[...html.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/g)].map((m) => (htmlToText(m[1] ?? '').match(/[.!?](\s|$)/g) ?? []).length));
    expect(longest(article.html)).toBeGreaterThan(3);
    expect(longest(article.polishedHtml ?? '')).toBeLessThanOrEqual(3);
  });

  it('should remove the mid-article conclusion and repeated sentences in the polished version', () => {
    const article = write({ targetKeyword: 'tea', autoPolish: true });
    expect(article.html).toContain('In conclusion, tea is worth the effort');
    expect(article.polishedHtml).not.toContain('In conclusion, tea is worth the effort');
  });

  it('should apply convert-passive-voice and humanize only when set', () => {
    const request = { targetKeyword: 'tea', autoPolish: true, articleLength: 'longer' };
    const plain = write(request).polishedHtml ?? '';
    const active = write({ ...request, polishSettings: { 'convert-passive-voice': true, humanize: true } }).polishedHtml ?? '';
    expect(plain).toMatch(/is often praised by experienced users|are usually made when|are chosen by locals|It is imperative|Furthermore, individuals|Subsequently, one may/);
    expect(active).not.toMatch(/is often praised by experienced users|are usually made when|are chosen by locals|It is imperative|Furthermore, individuals|Subsequently, one may/);
  });

  it('should produce a polished version distinct from the draft even with every polish setting off', () => {
    const off = Object.fromEntries(['split-up-long-paragraphs', 'remove-mid-article-conclusions', 'remove-repetitive-sentences', 'convert-passive-voice', 'simplify-complex-sentences', 'humanize'].map((k) => [k, false]));
    const article = write({ targetKeyword: 'tea', autoPolish: true, polishSettings: off });
    expect(article.polishedHtml).not.toBeNull();
    expect(article.polishedHtml).not.toBe(article.html);
  });

  it('should be messy: full documents and fragments, skipped heading levels, tables, lists, blockquotes', () => {
    const articles = Array.from({ length: 12 }, (_, i) => write({ targetKeyword: `topic number ${i}`, articleLength: 'long' }).html);
    expect(articles.some((html) => html.startsWith('<!DOCTYPE html>'))).toBe(true);
    expect(articles.some((html) => !html.startsWith('<!DOCTYPE html>'))).toBe(true);
    // An h4 straight under an h2, with no h3 in between.
    expect(articles.every((html) => html.split(/<h2\b/).some((section) => /^[^]*?<h4\b/.test(section) && !/<h3\b/.test(section.split(/<h4\b/)[0] ?? '')))).toBe(true);
    expect(articles.some((html) => html.includes('<table'))).toBe(true);
    expect(articles.some((html) => /<[uo]l>/.test(html))).toBe(true);
    expect(articles.every((html) => html.includes('<blockquote'))).toBe(true);
  });
});
