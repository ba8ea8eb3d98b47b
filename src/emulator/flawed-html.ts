// Planting flaws in a written article's HTML: what each flaw kind does to the text, the same for the placeholder and the model writer.
import type { ArticleRequest } from '../contract/request-schema.js';
import { NUMBERED_ITEM } from '../contract/item-count.js';
import { htmlToText, countWords } from '../contract/word-count.js';
import type { FlawKind } from './flaw-options.js';
import { LINKING_WORDS, titleCase, topicOfKeyword, wordKey, wordsOf } from './placeholder-writer/keyword.js';
import { ENGLISH, languagePack, type LanguagePack } from './placeholder-writer/language-packs.js';
import { Prose } from './placeholder-writer/prose.js';
import { createRandom } from './seeded-random.js';

export interface FlawContext {
  request: ArticleRequest;
  /** Seed of the foreign sentences (the request's hash): the same article, the same flaws. */
  seed: string;
  /** `copy`: the HTML of the article copied; undefined when there is none to copy. */
  copied: string | undefined;
}

type Planter = (html: string, context: FlawContext) => string;

const PARAGRAPH = /<p\b[^>]*>[\s\S]*?<\/p>/gi;
const HEADING = /<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>/gi;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

function wordCount(html: string): number {
  return countWords(htmlToText(html)).total;
}

/** Apply `replace` to the text between tags only (attributes and tags stay as they are). */
function mapText(html: string, replace: (text: string) => string): string {
  return html
    .split(/(<[^>]*>)/)
    .map((part, index) => (index % 2 === 1 ? part : replace(part)))
    .join('');
}

/** Where new blocks go near the end: before the last h2 (the conclusion, as a rule), else before `</body>`, else at the end. */
function lateInsertPoint(html: string, after = 0): number {
  const lastH2 = html.search(/<h2\b(?![\s\S]*<h2\b)/i);
  if (lastH2 > after) return lastH2;
  const body = html.search(/<\/body>/i);
  return body >= 0 ? body : html.length;
}

/** The end of the first paragraph with words (`<p>&nbsp;</p>` is none). */
function firstParagraphEnd(html: string): number | undefined {
  for (const match of html.matchAll(PARAGRAPH)) if (wordCount(match[0]) >= 3) return match.index + match[0].length;
  return undefined;
}

/** "Espresso" → "Other", keeping the case a reader sees. */
function caseLike(word: string, replacement: string): string {
  if (word === word.toUpperCase() && word.length > 1) return replacement.toUpperCase();
  return word.charAt(0) === word.charAt(0).toUpperCase() ? titleCase(replacement) : replacement;
}

/** missing-keyword: the keyword's longest word (or its CJK part) is replaced everywhere in the text, so no title, paragraph or heading says the keyword. */
const dropKeyword: Planter = (html, { request }) => {
  const keyword = request.targetKeyword;
  const cjk = keyword.match(CJK_RUN) ?? [];
  if (cjk.length > 0) return mapText(html, (text) => text.replace(CJK_RUN, (run) => (cjk.some((part) => run.includes(part)) ? 'それ' : run)));
  const words = wordsOf(keyword).filter((word) => !LINKING_WORDS.has(word.toLowerCase()) && !/^\d+$/.test(wordKey(word)));
  const head = words.sort((a, b) => b.length - a.length)[0];
  if (head === undefined) return html;
  const key = wordKey(head);
  const replacement = wordsOf(keyword).some((word) => word.toLowerCase() === 'other') ? 'such' : 'other';
  return mapText(html, (text) => text.replace(/[\p{L}\p{N}\p{M}]+/gu, (word) => (wordKey(word) === key ? caseLike(word, replacement) : word)));
};

/** repeated-paragraph: the first paragraph of 20 words or more is written again, before the last h2. */
const repeatParagraph: Planter = (html) => {
  const paragraph = [...html.matchAll(PARAGRAPH)].find((match) => wordCount(match[0]) >= 20);
  if (paragraph === undefined) return html;
  const end = paragraph.index + paragraph[0].length;
  const at = lateInsertPoint(html, end);
  return `${html.slice(0, at)}${paragraph[0]}\n\n${html.slice(at)}`;
};

/** wrong-item-count: the last numbered item goes (or, of a single item, a second is added), so the count differs from the one asked. */
const miscountItems: Planter = (html) => {
  const headings = [...html.matchAll(HEADING)].map((match) => ({ level: Number(match[1]), start: match.index, end: match.index + match[0].length, text: htmlToText(match[2] ?? '').trim() }));
  const byLevel = new Map<number, typeof headings>();
  for (const heading of headings) if (NUMBERED_ITEM.test(heading.text)) byLevel.set(heading.level, [...(byLevel.get(heading.level) ?? []), heading]);
  const items = [...byLevel.values()].sort((a, b) => b.length - a.length)[0];
  const last = items?.at(-1);
  if (items === undefined || last === undefined) return html;
  const next = headings.find((heading) => heading.start > last.start && heading.level <= last.level);
  const sectionEnd = next?.start ?? lateInsertPoint(html, html.length);
  if (items.length >= 2) return html.slice(0, last.start) + html.slice(sectionEnd);
  const extra = `<h${last.level}>${items.length + 1}. A runner-up</h${last.level}>\n<p>One more pick, for good measure.</p>\n\n`;
  return html.slice(0, sectionEnd) + extra + html.slice(sectionEnd);
};

/** The language the article is not in: German, else English. */
function otherPack(request: ArticleRequest): LanguagePack {
  const written = languagePack(request.language) ?? ENGLISH;
  return written.name === 'German' ? ENGLISH : (languagePack('German') as LanguagePack);
}

/** other-language: every paragraph and list item is written in another language (German; English for a German article), from the writer's sentence bank. */
const otherLanguage: Planter = (html, { request, seed }) => {
  const pack = otherPack(request);
  const topic = topicOfKeyword(request.targetKeyword);
  const prose = new Prose({ pack, pointOfView: 'third_person', simpleLanguage: false, random: createRandom(`${seed}:other-language`), variables: { topic, Topic: titleCase(topic) } });
  const rewrite = (open: string, inner: string, close: string): string => {
    const words = wordCount(inner);
    if (words < 4 || /<(?:p|ul|ol|table)\b/i.test(inner)) return open + inner + close;
    const sentences = prose.sentences(Math.max(2, Math.round(words / 14)));
    return open + sentences.map((sentence) => sentence.html).join(pack.sentenceGap) + close;
  };
  return html
    .replace(/(<p\b[^>]*>)([\s\S]*?)(<\/p>)/gi, (_, open: string, inner: string, close: string) => rewrite(open, inner, close))
    .replace(/(<li\b[^>]*>)([\s\S]*?)(<\/li>)/gi, (_, open: string, inner: string, close: string) => rewrite(open, inner, close));
};

/** writer-leftover: the writer's note about itself and an image placeholder, left in before the last h2. */
const leaveLeftovers: Planter = (html) => {
  const at = lateInsertPoint(html);
  const leftovers = '<p>As an AI language model, I cannot try these things myself, but here is what the sources agree on.</p>\n<p>[Insert image here]</p>\n\n';
  return html.slice(0, at) + leftovers + html.slice(at);
};

/** copy: the article keeps its title and first paragraph; the rest is the copied article's, after its own first paragraph. */
const copyArticle: Planter = (html, { copied }) => {
  if (copied === undefined) return html;
  const own = firstParagraphEnd(html);
  const theirs = firstParagraphEnd(copied);
  if (own === undefined || theirs === undefined) return html;
  return html.slice(0, own) + copied.slice(theirs);
};

/** In this order: a copy first (the other flaws then apply to the copied text too). */
const PLANTERS: readonly [FlawKind, Planter][] = [
  ['copy', copyArticle],
  ['other-language', otherLanguage],
  ['missing-keyword', dropKeyword],
  ['wrong-item-count', miscountItems],
  ['repeated-paragraph', repeatParagraph],
  ['writer-leftover', leaveLeftovers],
];

/** The HTML with each of `kinds` planted. Deterministic: the same HTML, kinds and context give the same result. */
export function withFlaws(html: string, kinds: readonly FlawKind[], context: FlawContext): string {
  let flawed = html;
  for (const [kind, plant] of PLANTERS) if (kinds.includes(kind)) flawed = plant(flawed, context);
  return flawed;
}
