// The one-pass word counter agrees with the plain regex definition of a word on real and tricky text.

import { readFile, readdir } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { countHtmlWords, countWords, hasWords, wordSpans } from '../../src/contract/word-count.js';
import { parseArticleHtml } from '../../src/pipeline/parse.js';
import { rawText } from '../../src/pipeline/plain-text.js';

// The definition, written as regexes: slow, obviously right.
function oracle(text: string) {
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]/gu;
  const cjkCharacters = text.match(cjk)?.length ?? 0;
  const words = text.replace(cjk, ' ').match(/[\p{L}\p{N}\p{M}]+(?:['’.\-][\p{L}\p{N}\p{M}]+)*/gu)?.length ?? 0;
  return { words, cjkCharacters, total: words + cjkCharacters };
}

describe('countWords', () => {
  test('should agree with the regex definition on every fixture article', async () => {
    const directory = new URL('../../fixtures/articles/', import.meta.url);
    for (const file of (await readdir(directory)).filter((name) => name.endsWith('.html'))) {
      const text = rawText(parseArticleHtml(await readFile(new URL(file, directory), 'utf8')).tree);
      expect(countWords(text), file).toEqual(oracle(text));
    }
  });

  test.each([
    "don't e-mail 3.5 l’été — ok.",
    'a--b a..b -a- .5 5. it’s ’quoted’',
    'Straße × ÷ naïve Ærø ĳ ǅ ȸ',
    '々〆〇〻〱〜〰ー・ｶﾀｶﾅ ＡＢＣ１２３',
    '𠮷野家で食べた𝒳 math 𝟙𝟚',
    'Café\u0301 e\u0301 ﬁle ZWJ\u200Dtext nbsp\u00A0here ª² µ',
    'ไทยภาษา 한국어 문장 Ελληνικά русский текст עברית',
    '',
  ])('should count %j as the regex definition does, and hasWords stop at the same count', (text) => {
    expect(countWords(text)).toEqual(oracle(text));
    // hasWords walks the text on its own (it stops early): it must agree with the count at every threshold.
    const total = oracle(text).total;
    for (let least = 0; least <= total + 1; least++) expect(hasWords(text, least), `${least}`).toBe(total >= least);
  });
});

describe('wordSpans', () => {
  test.each(["don't e-mail 3.5 l’été — ok.", '𠮷野家で食べた𝒳 math', 'a--b .5 5. ไทยภาษา 한국어', ''])('should give one span per counted word of %j, each a word of the text', (text) => {
    const spans = wordSpans(text);
    expect(spans.length).toBe(countWords(text).total);
    for (const { start, end } of spans) expect(countWords(text.slice(start, end)).total).toBe(1);
    expect(spans.every((span, index) => index === 0 || span.start >= spans[index - 1]!.end)).toBe(true);
  });
});

describe('countHtmlWords', () => {
  test('should separate words at every tag, decode entities, and leave out comments, scripts, styles, templates and the head', () => {
    expect(countHtmlWords('<p>one<br>two</p><p>three&amp;four &nbsp; five&#39;s</p>')).toBe(5);
    expect(countHtmlWords('<head><title>x y</title></head><!-- a b --><template>c</template><script>d</script><p title="e f">g</p>')).toBe(1);
  });
});
