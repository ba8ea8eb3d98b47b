// Reading time from a word count: words per minute for space-separated scripts, characters per minute for Chinese and Japanese.
import type { WordCount } from '../contract/word-count.js';

/** Whole minutes, rounded up; 0 only for an article without a single word. */
export function readingMinutes(count: WordCount, wordsPerMinute: number, cjkCharactersPerMinute: number): number {
  if (count.total === 0) return 0;
  return Math.max(1, Math.ceil(count.words / wordsPerMinute + count.cjkCharacters / cjkCharactersPerMinute));
}
