// checkArticle on a clean article and on one planted flaw at a time: each flaw found with its code, severity, place and advice.
import { describe, expect, it } from 'vitest';
import { checkArticle, QualityOptionError, type Finding, type QualityCode } from '../../src/quality/index.js';
import { article, CLEAN_HTML, request, withBlock } from './article-fixture.js';

const codes = (findings: Finding[]) => findings.map((finding) => finding.code);
const only = (findings: Finding[], code: QualityCode) => findings.filter((finding) => finding.code === code);

describe('checkArticle', () => {
  it('should find nothing in a clean article', async () => {
    expect(await checkArticle(article())).toEqual([]);
  });

  it('should give each finding the slug, the code, the severity and a message', async () => {
    const [finding] = await checkArticle(article({ html: withBlock('<p>[Insert image of a kettle here]</p>') }));
    expect(finding).toEqual({ slug: 'how-to-brew-pour-over-coffee', code: 'writer_leftover', severity: 'error', message: expect.stringContaining('edit the article') });
  });

  describe('keyword_missing', () => {
    it('should report a keyword in none of the title, the first paragraph and the headings, as an error', async () => {
      const findings = await checkArticle(article({ request: request({ targetKeyword: 'espresso machine descaling' }) }));
      expect(findings).toEqual([
        expect.objectContaining({ code: 'keyword_missing', severity: 'error', message: expect.stringMatching(/"espresso machine descaling" is missing from the title .*, the first paragraph and every heading/) }),
      ]);
    });

    it('should accept the keyword in the title alone', async () => {
      const findings = await checkArticle(article({ title: 'Espresso Machine Descaling Made Easy', request: request({ targetKeyword: 'espresso machine descaling' }) }));
      expect(codes(findings)).not.toContain('keyword_missing');
    });

    it('should report an article with no visible text as an error, though its title (the keyword, when the service gave none) holds the keyword', async () => {
      for (const html of ['', '<p> </p><img src="/a.png" alt="">']) {
        const findings = only(await checkArticle(article({ html, title: 'how to brew pour over coffee' })), 'keyword_missing');
        expect(findings).toEqual([expect.objectContaining({ severity: 'error', message: 'the article has no visible text, so nothing of it uses the keyword "how to brew pour over coffee"; regenerate it' })]);
      }
    });

    it('should accept the keyword in a heading alone', async () => {
      const html = CLEAN_HTML.replace('<h2 id="cleaning-up">Cleaning up</h2>', '<h2>Descaling an espresso machine</h2>');
      const findings = await checkArticle(article({ html, request: request({ targetKeyword: 'espresso machine descaling' }) }));
      expect(codes(findings)).not.toContain('keyword_missing');
    });
  });

  describe('length_out_of_range', () => {
    it('should report an article far shorter than its articleLength asks for, with the counts', async () => {
      const findings = only(await checkArticle(article({ request: request({ articleLength: 'longer' }) })), 'length_out_of_range');
      expect(findings).toEqual([expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/has \d+ visible words, fewer than the 2,000–7,000 expected for articleLength "longer" \(about 4,000\)/) })]);
    });

    it('should follow the lengthBand option', async () => {
      const findings = await checkArticle(article(), { lengthBand: { below: 0.9 } });
      expect(codes(findings)).toEqual(['length_out_of_range']);
    });
  });

  describe('item_count_mismatch', () => {
    const list = (count: number) =>
      Array.from({ length: count }, (_, i) => `<h2>${i + 1}. Trail number ${i + 1}</h2><p>A walk through the forest of pour over coffee, number ${i + 1}, with its own view.</p>`).join('\n');

    it('should report a listicle whose numbered items differ from numberOfItems', async () => {
      const findings = only(await checkArticle(article({ html: list(3), request: request({ articleType: 'listicle', enableAutomaticLength: false, numberOfItems: 5 }) })), 'item_count_mismatch');
      expect(findings).toEqual([expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/has 3 numbered items .* asks for 5 \(numberOfItems\)/) })]);
    });

    it('should take the count from the keyword as the estimate does', async () => {
      const findings = only(await checkArticle(article({ html: list(4), request: request({ targetKeyword: 'best 7 pour over coffee trails', articleType: 'listicle' }) })), 'item_count_mismatch');
      expect(findings[0]?.message).toMatch(/asks for 7 \(enableAutomaticLength: the count in the keyword/);
    });

    it('should report a roundup whose numbered products differ from numRetailProducts', async () => {
      const findings = only(await checkArticle(article({ html: list(2), request: request({ articleType: 'retail_product_roundup', numRetailProducts: 3 }) })), 'item_count_mismatch');
      expect(findings[0]?.message).toMatch(/2 numbered products .* asks for 3 \(numRetailProducts\)/);
    });

    it('should accept the asked-for count', async () => {
      const findings = await checkArticle(article({ html: list(5), request: request({ articleType: 'listicle', enableAutomaticLength: false, numberOfItems: 5 }) }));
      expect(codes(findings)).not.toContain('item_count_mismatch');
    });
  });

  describe('requested sections', () => {
    it('should report faq_missing when includeFaq was asked for', async () => {
      const findings = await checkArticle(article({ request: request({ includeFaq: true }) }));
      expect(only(findings, 'faq_missing')).toEqual([expect.objectContaining({ severity: 'warning', message: expect.stringContaining('set includeFaq: false') })]);
    });

    it('should find a FAQ under its heading', async () => {
      const html = withBlock('<h2>Frequently Asked Questions</h2><h3>Can I reuse a paper filter?</h3><p>No, a used filter gives the next cup a stale and papery taste.</p>');
      expect(codes(await checkArticle(article({ html, request: request({ includeFaq: true }) })))).not.toContain('faq_missing');
    });

    it('should report key_takeaways_missing when includeKeyTakeaways was asked for', async () => {
      expect(codes(await checkArticle(article({ request: request({ includeKeyTakeaways: true }) })))).toContain('key_takeaways_missing');
    });

    it('should not expect key takeaways when the introduction is disabled', async () => {
      expect(codes(await checkArticle(article({ request: request({ includeKeyTakeaways: true, disableIntroduction: true }) })))).not.toContain('key_takeaways_missing');
    });

    it('should report conclusion_present when disableConclusion was asked for, naming the heading', async () => {
      const findings = only(await checkArticle(article({ request: request({ disableConclusion: true }) })), 'conclusion_present');
      expect(findings[0]?.message).toContain('("Conclusion")');
    });
  });

  describe('language_mismatch', () => {
    it("should report text that is not in the request's language, as an error", async () => {
      const findings = only(await checkArticle(article({ request: request({ language: 'German' }) })), 'language_mismatch');
      expect(findings).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringContaining('reads as English, but the request asks for language "German"') })]);
    });

    it('should not judge a text with fewer words than minLanguageWords', async () => {
      const findings = await checkArticle(article({ request: request({ language: 'German' }) }), { minLanguageWords: 5_000 });
      expect(codes(findings)).not.toContain('language_mismatch');
    });

    it('should not judge a language name it has no code for', async () => {
      expect(codes(await checkArticle(article({ request: request({ language: 'Klingon' }) })))).not.toContain('language_mismatch');
    });
  });

  describe('repeated_text', () => {
    it('should report a repeated paragraph once, with both places', async () => {
      const paragraph = CLEAN_HTML.match(/<p>Rinse the paper[^<]*<\/p>/)![0];
      const findings = only(await checkArticle(article({ html: withBlock(paragraph) })), 'repeated_text');
      expect(findings).toEqual([expect.objectContaining({ message: expect.stringMatching(/^the paragraph "Rinse the paper.*appears twice \(under the heading "Step by step" and under the heading "Cleaning up"\)/) })]);
    });

    it('should say the place once when both copies are in it', async () => {
      const sentence = 'A cone dripper, a paper filter and a kettle with a narrow spout are the only essentials.';
      const findings = only(await checkArticle(article({ html: `<p>${sentence} Then more.</p><p>Later. ${sentence}</p>${CLEAN_HTML}` })), 'repeated_text');
      expect(findings[0]?.message).toMatch(/^the sentence "A cone dripper.*" appears twice before the first heading; edit the article/);
    });

    it('should report a repeated sentence', async () => {
      const findings = only(await checkArticle(article({ html: withBlock('<p>A cone dripper, a paper filter and a kettle with a narrow spout are the only essentials. Enjoy it.</p>') })), 'repeated_text');
      expect(findings[0]?.message).toMatch(/^the sentence "A cone dripper, a paper filter/);
    });

    it('should report a word written twice in a row', async () => {
      const findings = only(await checkArticle(article({ html: withBlock('<p>Warm the the cup before you pour.</p>') })), 'repeated_text');
      expect(findings[0]?.message).toMatch(/the word "the" twice in a row/);
    });
  });

  describe('writer_leftover', () => {
    it.each([
      ['an AI self-reference', '<p>As an AI language model, I cannot taste coffee myself.</p>'],
      ['a "[…]" placeholder', '<p>[Insert image of the bloom here]</p>'],
      ['an unfilled "<…>" placeholder', '<p>Buy your beans at &lt;Store Name&gt; for the best results.</p>'],
      ['an unfilled "{…}" placeholder', '<p>Everything about {topic} in one place.</p>'],
      ['a "Title:" line', '<p>Title: Pour Over Coffee for Beginners</p>'],
      ['a Markdown heading left as text', '<p>## Tips for better coffee</p>'],
      ['Markdown emphasis left as text', '<p>Always use **fresh** beans.</p>'],
      ['a Markdown link left as text', '<p>See [our guide](https://example.com/guide) for more.</p>'],
      ['lorem ipsum', '<p>Lorem ipsum dolor sit amet.</p>'],
    ])('should report %s', async (kind, block) => {
      const findings = only(await checkArticle(article({ html: withBlock(block) })), 'writer_leftover');
      expect(findings).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringContaining(`${kind} under the heading "Cleaning up"`) })]);
    });

    it('should leave code blocks alone', async () => {
      const findings = await checkArticle(article({ html: withBlock('<pre><code>## not a heading **not bold** &lt;placeholder&gt;</code></pre>') }));
      expect(codes(findings)).not.toContain('writer_leftover');
    });

    it('should check the title too', async () => {
      const findings = only(await checkArticle(article({ title: 'Title: How to Brew Pour Over Coffee' })), 'writer_leftover');
      expect(findings[0]?.message).toContain('in the title');
    });
  });

  describe('outline', () => {
    it('should report a heading that skips a level', async () => {
      const findings = only(await checkArticle(article({ html: CLEAN_HTML.replace('<h3 id="grind-size">Grind size</h3>', '<h4>Grind size</h4>') })), 'heading_skip');
      expect(findings[0]?.message).toBe('the heading "Grind size" is an h4 right after the h2 "The ratio"; edit it to an h3');
    });

    it('should report a heading with nothing under it', async () => {
      const findings = only(await checkArticle(article({ html: withBlock('<h2>Serving ideas</h2>') })), 'empty_section');
      expect(findings[0]?.message).toMatch(/^the heading "Serving ideas" has nothing under it/);
    });
  });

  describe('broken_internal_link', () => {
    it("should report a link into the collection's path that is no article", async () => {
      const findings = only(await checkArticle(article({ html: withBlock('<p>See <a href="/articles/cold-brew/">cold brew</a>.</p>') })), 'broken_internal_link');
      expect(findings[0]?.message).toMatch(/"\/articles\/cold-brew\/", which is no article of this collection/);
    });

    it('should accept links outside the collection, files, and an article written without its trailing slash', async () => {
      const html = withBlock('<p><a href="/about/">About</a> <a href="https://example.org/articles/x/">x</a> <a href="/articles/feed.xml">feed</a> <a href="/articles/coffee-grinders">grinders</a> <a href="#the-ratio">ratio</a></p>');
      expect(codes(await checkArticle(article({ html })))).not.toContain('broken_internal_link');
    });

    it("should judge absolute links to the site's own origin", async () => {
      const html = withBlock('<p><a href="https://example.com/articles/nope/">nope</a></p>');
      const collection = { paths: ['/articles/a/', '/articles/b/'], origins: ['https://example.com'] };
      expect(codes(await checkArticle(article({ html, collection })))).toContain('broken_internal_link');
    });
  });

  describe('image_alt_missing', () => {
    it('should report images without alt text once, with the count', async () => {
      const findings = only(await checkArticle(article({ html: withBlock('<p><img src="/a.png"><img src="/b.png" alt=" "><img src="/c.png" alt="" role="presentation"></p>') })), 'image_alt_missing');
      expect(findings).toEqual([expect.objectContaining({ message: expect.stringMatching(/^2 images have no alt text \(the first under the heading "Cleaning up", src "\/a.png"\)/) })]);
    });
  });

  describe('settings', () => {
    it('should leave out a code set to off', async () => {
      const flawed = article({ html: withBlock('<p>Lorem ipsum dolor sit amet.</p><h2>Empty</h2>') });
      expect(codes(await checkArticle(flawed))).toEqual(['writer_leftover', 'empty_section']);
      expect(codes(await checkArticle(flawed, { codes: { writer_leftover: 'off' } }))).toEqual(['empty_section']);
    });

    it('should give a code the severity the settings name', async () => {
      const findings = await checkArticle(article({ html: withBlock('<h2>Empty</h2>') }), { codes: { empty_section: 'error' } });
      expect(findings.map((finding) => finding.severity)).toEqual(['error']);
    });

    it('should refuse an unknown code before checking anything', async () => {
      await expect(checkArticle(article(), { codes: { keyword_mising: 'off' } } as never)).rejects.toThrow(QualityOptionError);
    });
  });
});
