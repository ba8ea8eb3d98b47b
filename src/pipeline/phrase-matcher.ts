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
const BOUNDED = String.raw`(?:(?![${UNSPACED}])[\p{L}\p{N}\p{M}_])`;
const BOUNDED_CHAR = new RegExp(`^${BOUNDED}$`, 'u');
const SYNTAX = /[\^$\\.*+?()[\]{}|/]/;

interface TrieNode {
  children: Map<string, TrieNode>;
  /** A phrase ends here. */
  end?: boolean;
}

/** Fold a phrase or matched text for lookup: whitespace runs to one space, lower case. */
export function foldPhrase(text: string): string {
  return text.replace(/\s+/g, ' ').toLowerCase();
}

export function isBoundedChar(char: string | undefined): boolean {
  return char !== undefined && BOUNDED_CHAR.test(char);
}

/**
 * Compile the phrases into one regex: a trie of the folded phrases (so shared prefixes are tried
 * once), every branch ordered so that the longest phrase wins at a position, and one boundary
 * lookbehind for the phrases that start with a bounded character. The end boundary is checked on
 * the match, not in the pattern: repeated at every phrase end, its Unicode classes made a pattern
 * of a thousand phrases take seconds to compile. Earlier entries win when two fold the same.
 */
export function compilePhrases(entries: readonly LinkEntry[]): PhraseMatcher {
  const byFold = new Map<string, LinkEntry>();
  const boundedStart: TrieNode = { children: new Map() };
  const freeStart: TrieNode = { children: new Map() };
  for (const entry of entries) {
    const folded = foldPhrase(entry.phrase.trim());
    if (folded === '' || byFold.has(folded)) continue;
    byFold.set(folded, entry);
    const chars = Array.from(folded);
    let node = isBoundedChar(chars[0]) ? boundedStart : freeStart;
    for (const char of chars) {
      let next = node.children.get(char);
      if (!next) {
        next = { children: new Map() };
        node.children.set(char, next);
      }
      node = next;
    }
    node.end = true;
  }
  if (byFold.size === 0) return { find: () => undefined };

  const branches: string[] = [];
  if (boundedStart.children.size > 0) branches.push(`(?<!${BOUNDED})${serialize(boundedStart)}`);
  if (freeStart.children.size > 0) branches.push(serialize(freeStart));
  const regex = new RegExp(branches.join('|'), 'giu');

  return {
    find(text, from, usable) {
      regex.lastIndex = from;
      let match: RegExpExecArray | null;
      while ((match = regex.exec(text)) !== null) {
        const matched = match[0];
        const start = match.index;
        // The regex found the longest phrase here; it or a shorter one (a prefix of it) must also
        // end on a word boundary and be usable. Checking ends here keeps the pattern small.
        for (let length = matched.length; length > 0; length--) {
          const entry = byFold.get(foldPhrase(matched.slice(0, length)));
          if (!entry) continue;
          const bounded = isBoundedChar(lastChar(matched, length)) && isBoundedChar(charAt(text, start + length));
          if (!bounded && usable(entry)) return { index: start, end: start + length, entry };
        }
        regex.lastIndex = start + (text.codePointAt(start)! > 0xffff ? 2 : 1);
      }
      return undefined;
    },
  };
}

function serialize(node: TrieNode): string {
  const alternatives: string[] = [];
  for (const [char, child] of node.children) alternatives.push(escape(char) + serialize(child));
  // Last, so that a longer phrase through a child is tried first.
  if (node.end) alternatives.push('');
  if (alternatives.length === 1) return alternatives[0]!;
  return `(?:${alternatives.join('|')})`;
}

function escape(char: string): string {
  if (char === ' ') return String.raw`\s+`;
  return SYNTAX.test(char) ? '\\' + char : char;
}

function lastChar(text: string, length: number): string | undefined {
  const code = text.charCodeAt(length - 1);
  return code >= 0xdc00 && code <= 0xdfff && length > 1 ? text.slice(length - 2, length) : text[length - 1];
}

function charAt(text: string, index: number): string | undefined {
  const code = text.codePointAt(index);
  return code === undefined ? undefined : String.fromCodePoint(code);
}
