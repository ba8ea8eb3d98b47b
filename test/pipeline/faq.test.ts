// The FAQ found in an article: questions as sub-headings or <details>, answers up to the next heading, nothing past the section.
import { describe, expect, it } from 'vitest';
import { writeArticle } from '../../src/emulator/index.js';
import { parseArticleHtml } from '../../src/pipeline/parse.js';
import { faqOf } from '../../src/pipeline/index.js';
import { articleRequestSchema } from '../../src/contract/request-schema.js';

const faq = (html: string) => faqOf(parseArticleHtml(html).tree);

describe('faqOf', () => {
  it('should take each deeper heading as a question and the text up to the next heading as its answer', () => {
    expect(
      faq('<h2>Intro</h2><p>Not a question.</p><h2>Frequently Asked Questions</h2><h3>Is it safe?</h3><p>Yes.</p><ul><li>Mostly.</li></ul><h3>No answer?</h3><h2>Conclusion</h2><p>Done.</p>'),
    ).toEqual([{ question: 'Is it safe?', answer: 'Yes. Mostly.' }]);
  });

  it('should read <details> questions, FAQ headings in other languages, and nothing when there is no FAQ', () => {
    expect(faq('<section><h2>FAQ</h2><details><summary>Why?</summary><p>Because.</p></details></section>')).toEqual([{ question: 'Why?', answer: 'Because.' }]);
    expect(faq('<h2>Häufig gestellte Fragen</h2><h3>Wie lange?</h3><p>Zehn Minuten.</p>')).toEqual([{ question: 'Wie lange?', answer: 'Zehn Minuten.' }]);
    expect(faq('<h2>Questions to ask a guide</h2><h3>Which trail?</h3><p>The short one.</p>')).toEqual([]);
  });

  it("should find the FAQ the emulator writes when includeFaq is set, in English and German", () => {
    for (const language of ['English', 'German']) {
      const { html } = writeArticle(articleRequestSchema.parse({ targetKeyword: 'trail running shoes', includeFaq: true, language }));
      const items = faq(html);
      expect(items.length, language).toBeGreaterThanOrEqual(3);
      for (const item of items) expect(item.answer.length).toBeGreaterThan(10);
    }
    const { html } = writeArticle(articleRequestSchema.parse({ targetKeyword: 'trail running shoes' }));
    expect(faq(html)).toEqual([]);
  });
});
