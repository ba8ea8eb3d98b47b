// Internal linking: find phrases of a domain's pages in content and link them, in HTML, Markdown or JSON.
import type { InternalLinkPage } from './accounts.js';
import { wordSpans } from '../contract/word-count.js';
import { escapeHtml, escapeRegExp } from '../lang/escape.js';

/** The spec: only the first ~2,500 words are analysed; the rest comes back unchanged. */
export const WORDS_ANALYSED = 2500;
/** The spec: up to 50 links per request. */
export const MAX_LINKS = 50;

export interface InsertedLink {
  phrase: string;
  url: string;
  title: string | null;
  /** UTF-16 offsets of the phrase in the submitted content. */
  start: number;
  end: number;
}

export interface LinkResult {
  links: InsertedLink[];
  wordsAnalysed: number;
  /** The content with the links inserted, in the content's own syntax. */
  content: string;
}

/** A stretch of the content: text that may get links, or markup/text that must stay as it is. */
interface Segment {
  start: number;
  end: number;
  linkable: boolean;
  /** Counts toward the word limit (visible text). */
  text: boolean;
}

/** Elements whose text is never linked: existing links, headings, code and non-content elements. */
const NO_LINK_ELEMENTS = new Set(['a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'code', 'pre', 'kbd', 'samp', 'script', 'style', 'textarea', 'title', 'button', 'select', 'option', 'template', 'svg', 'math', 'iframe', 'head']);
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title']);

/** Split HTML into tags and text, marking text inside NO_LINK_ELEMENTS as not linkable. */
function htmlSegments(html: string): Segment[] {
  const segments: Segment[] = [];
  const open: string[] = [];
  const tag = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<![^>]*>?|<\/?([a-zA-Z][a-zA-Z0-9-]*)\b(?:[^>"']|"[^"]*"|'[^']*')*>?/g;
  let at = 0;
  for (let match = tag.exec(html); match !== null; match = tag.exec(html)) {
    if (match[0] === '') {
      tag.lastIndex++;
      continue;
    }
    if (match.index > at) segments.push({ start: at, end: match.index, linkable: open.length === 0, text: true });
    const end = match.index + match[0].length;
    segments.push({ start: match.index, end, linkable: false, text: false });
    at = end;
    const name = match[1]?.toLowerCase();
    if (name === undefined) continue;
    if (match[0].startsWith('</')) {
      const index = open.lastIndexOf(name);
      if (index >= 0) open.length = index;
    } else if (NO_LINK_ELEMENTS.has(name) && !match[0].endsWith('/>')) {
      open.push(name);
      if (RAW_TEXT_ELEMENTS.has(name)) {
        // Raw text elements end only at their own closing tag.
        const close = html.toLowerCase().indexOf(`</${name}`, end);
        const stop = close < 0 ? html.length : close;
        if (stop > end) segments.push({ start: end, end: stop, linkable: false, text: false });
        at = stop;
        tag.lastIndex = stop;
      }
    }
  }
  if (at < html.length) segments.push({ start: at, end: html.length, linkable: open.length === 0, text: true });
  return segments;
}

/** Split Markdown into linkable text and spans to keep: code, links, images, autolinks, headings, HTML. */
function markdownSegments(markdown: string): Segment[] {
  const segments: Segment[] = [];
  const protectedSpans =
    /^(?:```|~~~)[^\n]*\n[\s\S]*?(?:\n(?:```|~~~)[^\n]*(?=\n|$)|$)|^#{1,6}[ \t][^\n]*|!?\[[^\]\n]*\]\([^)\n]*\)|!?\[[^\]\n]*\]\[[^\]\n]*\]|<https?:[^>\s]+>|<[a-zA-Z/!][^>\n]*>|`[^`\n]+`|https?:\/\/[^\s)]+/gm;
  let at = 0;
  for (const match of markdown.matchAll(protectedSpans)) {
    if (match.index > at) segments.push({ start: at, end: match.index, linkable: true, text: true });
    const end = match.index + match[0].length;
    // Link texts and headings are visible words; code and URLs count too, as a reader sees them.
    segments.push({ start: match.index, end, linkable: false, text: !match[0].startsWith('<') });
    at = end;
  }
  if (at < markdown.length) segments.push({ start: at, end: markdown.length, linkable: true, text: true });
  return segments;
}

/** Whether content reads as HTML (for the JSON format, which accepts either). */
export function looksLikeHtml(content: string): boolean {
  return /<(?:[a-zA-Z][a-zA-Z0-9-]*)(?:\s[^>]*)?>/.test(content);
}

interface Phrase {
  text: string;
  page: InternalLinkPage;
  pattern: RegExp;
}

function phrasesOf(pages: readonly InternalLinkPage[]): Phrase[] {
  const phrases: Phrase[] = [];
  const seen = new Set<string>();
  for (const page of pages) {
    const texts = page.keywords !== undefined && page.keywords.length > 0 ? page.keywords : page.title !== undefined ? [page.title] : [];
    for (const raw of texts) {
      const text = raw.trim();
      if (text === '' || seen.has(text.toLowerCase())) continue;
      seen.add(text.toLowerCase());
      const body = text.split(/\s+/).map(escapeRegExp).join('\\s+');
      phrases.push({ text, page, pattern: new RegExp(`(?<![\\p{L}\\p{N}_])${body}(?![\\p{L}\\p{N}_])`, 'giu') });
    }
  }
  // Longer phrases first, so "trail running shoes" wins over "shoes".
  return phrases.sort((a, b) => b.text.length - a.text.length);
}

/** Offset in `content` where the first `limit` words end (text segments only), and the words counted. */
function analysedEnd(content: string, segments: Segment[], limit: number): { end: number; words: number } {
  let words = 0;
  for (const segment of segments) {
    if (!segment.text) continue;
    for (const span of wordSpans(content.slice(segment.start, segment.end))) {
      words++;
      if (words === limit) return { end: segment.start + span.end, words };
    }
  }
  return { end: content.length, words };
}

export type LinkSyntax = 'html' | 'markdown';

/**
 * Link phrases of `pages` in `content`. Each page and each phrase is linked at most once, at its
 * first eligible occurrence; at most MAX_LINKS links; only within the first WORDS_ANALYSED words.
 */
export function insertLinksInText(content: string, pages: readonly InternalLinkPage[], syntax: LinkSyntax): LinkResult {
  const segments = syntax === 'html' ? htmlSegments(content) : markdownSegments(content);
  const { end: limitEnd, words: wordsAnalysed } = analysedEnd(content, segments, WORDS_ANALYSED);
  const candidates: { start: number; end: number; phrase: Phrase }[] = [];
  for (const phrase of phrasesOf(pages)) {
    for (const segment of segments) {
      if (!segment.linkable || segment.start >= limitEnd) continue;
      const text = content.slice(segment.start, Math.min(segment.end, limitEnd));
      phrase.pattern.lastIndex = 0;
      const match = phrase.pattern.exec(text);
      if (match !== null) {
        candidates.push({ start: segment.start + match.index, end: segment.start + match.index + match[0].length, phrase });
        break;
      }
    }
  }
  candidates.sort((a, b) => a.start - b.start || b.end - a.end);
  const chosen: typeof candidates = [];
  const linkedPages = new Set<InternalLinkPage>();
  for (const candidate of candidates) {
    if (chosen.length >= MAX_LINKS) break;
    if (linkedPages.has(candidate.phrase.page)) continue;
    const previous = chosen.at(-1);
    if (previous !== undefined && candidate.start < previous.end) continue;
    chosen.push(candidate);
    linkedPages.add(candidate.phrase.page);
  }

  let output = '';
  let at = 0;
  for (const link of chosen) {
    const phrase = content.slice(link.start, link.end);
    output += content.slice(at, link.start) + anchor(phrase, link.phrase.page, syntax);
    at = link.end;
  }
  output += content.slice(at);
  return {
    content: output,
    wordsAnalysed,
    links: chosen.map((link) => ({
      phrase: content.slice(link.start, link.end),
      url: link.phrase.page.url,
      title: link.phrase.page.title ?? null,
      start: link.start,
      end: link.end,
    })),
  };
}

function anchor(phrase: string, page: InternalLinkPage, syntax: LinkSyntax): string {
  if (syntax === 'markdown') return `[${phrase}](${page.url.replace(/[()\s]/g, encodeURIComponent)})`;
  const title = page.title === undefined ? '' : ` title="${escapeHtml(page.title)}"`;
  return `<a href="${escapeHtml(page.url)}"${title}>${phrase}</a>`;
}
