// Phrase matching for internal links: all phrases in one regex, longest first, Unicode word boundaries.

import type { LinkEntry } from './link-map.js';

export interface PhraseMatch {
  index: number;
  end: number;
  entry: LinkEntry;
}

export interface PhraseMatcher {
  /** The first match at or after `from` whose entry `usable` accepts; a shorter phrase at the same place when the longest is not usable. */
  find(text: string, from: number, usable: (entry: LinkEntry) => boolean): PhraseMatch | undefined;
}

// Scripts written without spaces between words: a phrase in them needs no word boundary, and their
// characters are never "word characters" for the boundary of a neighbouring Latin phrase.
const UNSPACED = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30FC`;
// `\b` is ASCII-only; this is a letter, digit, mark or underscore of a space-separated script.
const BOUNDED_CHAR = new RegExp(String.raw`^(?![${UNSPACED}])[\p{L}\p{N}\p{M}_]$`, 'u');
const SYNTAX = /[\^$\\.*+?()[\]{}|/]/;
/** The trie edge of a whitespace run: foldPhrase makes every run one space. */
const SPACE = 0x20;
const SMALL_SIGMA = 0x3c3;
const FINAL_SIGMA = 0x3c2;

interface TrieNode {
  /** Keyed by `edgeKey(code point)`, so walking a match allocates no strings. */
  children: Map<number, TrieNode>;
  /** The phrases that end here (more than one only when they differ in σ and ς). */
  phrases?: Phrase[];
  /** A shorter phrase ends on the way here. */
  hasShorter?: boolean;
}

interface Phrase {
  fold: string;
  entry: LinkEntry;
  node: TrieNode;
}

/**
 * The trie key of a folded character. Lower case turns Σ into σ or ς depending on what follows,
 * so a text's σ and a phrase's ς can be the same letter: one edge for both keeps the longest
 * phrase on one path (the case-insensitive pattern matches either anyway); the exact spelling is
 * checked against the phrase.
 */
function edgeKey(code: number): number {
  return code === FINAL_SIGMA ? SMALL_SIGMA : code;
}

/** Fold a phrase or matched text for lookup: whitespace runs to one space, lower case. */
export function foldPhrase(text: string): string {
  return text.replace(/\s+/g, ' ').toLowerCase();
}

// Word characters by code point: ASCII from a table, the rest tested once each and remembered.
const ASCII_BOUNDED = Array.from({ length: 128 }, (_, code) => /\w/.test(String.fromCharCode(code)));
const boundedCache = new Map<number, boolean>();
const BOUNDED_CACHE_SIZE = 10_000;

function isBoundedCode(code: number): boolean {
  if (code < 128) return ASCII_BOUNDED[code]!;
  let bounded = boundedCache.get(code);
  if (bounded === undefined) {
    bounded = BOUNDED_CHAR.test(String.fromCodePoint(code));
    // Bounded, so that text made of every code point cannot grow it without end.
    if (boundedCache.size < BOUNDED_CACHE_SIZE) boundedCache.set(code, bounded);
  }
  return bounded;
}

/** JavaScript's `\s`, which foldPhrase and the pattern use, by code unit (every one is in the BMP). */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/** The folded phrases as two tries: those that need a word boundary at their start, and those that do not. */
interface PhraseTrie {
  boundedStart: TrieNode;
  freeStart: TrieNode;
  /** Folded phrase → phrase: most matches are spelled like one. */
  byFold: Map<string, Phrase>;
  /** Text shorter than this (code units) holds no phrase: every code point of a phrase needs one of the text. */
  minLength: number;
}

/**
 * Compile the phrases into one regex: a trie of the folded phrases (so shared prefixes are tried
 * once), every branch ordered so that the longest phrase wins at a position. A match is then
 * folded once and looked up; only when a shorter phrase could be wanted instead (the longest one
 * ends inside a word or is not usable) is the trie walked along the match.
 *
 * The word boundaries are checked on the match, except the ASCII half of the start boundary, a
 * cheap lookbehind that spares most matches inside words the round trip. In the pattern, their
 * Unicode classes made a thousand phrases take seconds to compile (at every phrase end) and every
 * position of the text several times slower to try (at the start). Earlier entries win when two
 * fold the same.
 */
export function compilePhrases(entries: readonly LinkEntry[]): PhraseMatcher {
  const trie = buildTrie(entries);
  if (trie.byFold.size === 0) return { find: () => undefined };
  markShorter(trie.boundedStart, false);
  markShorter(trie.freeStart, false);
  return new TrieMatcher(trie, phrasePattern(trie));
}

function buildTrie(entries: readonly LinkEntry[]): PhraseTrie {
  const trie: PhraseTrie = { boundedStart: { children: new Map() }, freeStart: { children: new Map() }, byFold: new Map(), minLength: Number.POSITIVE_INFINITY };
  for (const entry of entries) {
    const folded = foldPhrase(entry.phrase.trim());
    if (folded === '' || trie.byFold.has(folded)) continue;
    let node = isBoundedCode(folded.codePointAt(0)!) ? trie.boundedStart : trie.freeStart;
    let codePoints = 0;
    for (const char of folded) {
      const code = edgeKey(char.codePointAt(0)!);
      let next = node.children.get(code);
      if (!next) {
        next = { children: new Map() };
        node.children.set(code, next);
      }
      node = next;
      codePoints++;
    }
    const phrase: Phrase = { fold: folded, entry, node };
    (node.phrases ??= []).push(phrase);
    trie.byFold.set(folded, phrase);
    trie.minLength = Math.min(trie.minLength, codePoints);
  }
  return trie;
}

function phrasePattern(trie: PhraseTrie): RegExp {
  const branches: string[] = [];
  if (trie.boundedStart.children.size > 0) branches.push(`(?<![a-z0-9_])${serialize(trie.boundedStart)}`);
  if (trie.freeStart.children.size > 0) branches.push(serialize(trie.freeStart));
  return new RegExp(branches.join('|'), 'giu');
}

/** The matcher of compiled phrases. Not re-entrant: the regex and the scratch space are its own. */
class TrieMatcher implements PhraseMatcher {
  readonly #trie: PhraseTrie;
  readonly #regex: RegExp;
  // Scratch space of `#walk`: the phrase ends along one match, reused so that a walk allocates little.
  readonly #ends: number[] = [];
  readonly #found: Phrase[][] = [];

  constructor(trie: PhraseTrie, regex: RegExp) {
    this.#trie = trie;
    this.#regex = regex;
  }

  find(text: string, from: number, usable: (entry: LinkEntry) => boolean): PhraseMatch | undefined {
    if (text.length - from < this.#trie.minLength) return undefined;
    const regex = this.#regex;
    regex.lastIndex = from;
    let match: RegExpExecArray | null;
    while ((match = regex.exec(text)) !== null) {
      const start = match.index;
      let candidate: PhraseMatch | undefined;
      const folded = match[0].toLowerCase();
      // Lower case keeps the length of anything the pattern can match (İ, the one exception, matches no folded phrase).
      if (folded.length === match[0].length && !startsInsideWord(text, start)) {
        const phrase = this.#trie.byFold.get(folded);
        if (phrase === undefined || phrase.node.hasShorter) {
          candidate = this.#walk(text, start, folded, usable);
        } else {
          const end = start + folded.length;
          if (!endsInsideWord(text, start, end) && usable(phrase.entry)) candidate = { index: start, end, entry: phrase.entry };
        }
      }
      if (candidate) return candidate;
      regex.lastIndex = start + (text.codePointAt(start)! > 0xffff ? 2 : 1);
    }
    return undefined;
  }

  /**
   * Every phrase that starts at `start` lies on the one trie path that the match spells; walk it
   * once (over the folded match), then try the phrases longest first. Each is checked against the
   * text it would link, folded on its own: the walk followed the whole match's folding.
   */
  #walk(text: string, start: number, folded: string, usable: (entry: LinkEntry) => boolean): PhraseMatch | undefined {
    const ends = this.#ends;
    const found = this.#found;
    let node: TrieNode | undefined = isBoundedCode(folded.codePointAt(0)!) ? this.#trie.boundedStart : this.#trie.freeStart;
    let count = 0;
    let index = 0;
    while (index < folded.length) {
      const code = folded.codePointAt(index)!;
      if (isSpace(code)) {
        node = node.children.get(SPACE);
        index++;
        while (index < folded.length && isSpace(folded.charCodeAt(index))) index++;
      } else {
        node = node.children.get(edgeKey(code));
        index += code > 0xffff ? 2 : 1;
      }
      if (node === undefined) break;
      if (node.phrases !== undefined) {
        ends[count] = start + index;
        found[count] = node.phrases;
        count++;
      }
    }
    for (let k = count - 1; k >= 0; k--) {
      const end = ends[k]!;
      if (endsInsideWord(text, start, end)) continue;
      const spelled = foldPhrase(text.slice(start, end));
      for (const phrase of found[k]!) {
        if (phrase.fold === spelled && usable(phrase.entry)) return { index: start, end, entry: phrase.entry };
      }
    }
    return undefined;
  }
}

function markShorter(node: TrieNode, above: boolean): void {
  for (const child of node.children.values()) {
    if (above) child.hasShorter = true;
    markShorter(child, above || child.phrases !== undefined);
  }
}

function serialize(node: TrieNode): string {
  const alternatives: string[] = [];
  for (const [code, child] of node.children) alternatives.push(escape(code) + serialize(child));
  // Last, so that a longer phrase through a child is tried first.
  if (node.phrases !== undefined) alternatives.push('');
  if (alternatives.length === 1) return alternatives[0]!;
  return `(?:${alternatives.join('|')})`;
}

function escape(code: number): string {
  if (code === SPACE) return String.raw`\s+`;
  const char = String.fromCodePoint(code);
  return SYNTAX.test(char) ? '\\' + char : char;
}

/** A phrase starting at `start` would start inside a word. */
function startsInsideWord(text: string, start: number): boolean {
  return start > 0 && isBoundedCode(text.codePointAt(start)!) && isBoundedCode(codeBefore(text, start, 0));
}

/** A phrase over [start, end) would end inside a word. */
function endsInsideWord(text: string, start: number, end: number): boolean {
  return end < text.length && isBoundedCode(codeBefore(text, end, start)) && isBoundedCode(text.codePointAt(end)!);
}

/** The code point that ends at `end`; a surrogate pair counts only when both halves are at or after `from`. */
function codeBefore(text: string, end: number, from: number): number {
  const code = text.charCodeAt(end - 1);
  return code >= 0xdc00 && code <= 0xdfff && end - 1 > from ? text.codePointAt(end - 2)! : code;
}
