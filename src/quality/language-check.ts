// language_mismatch: franc's reading of the visible text against the request's language. Loaded only when checks run.
import { francAll } from 'franc';
import { countWords } from '../contract/word-count.js';
import type { Check } from './check-context.js';
import { languageCodes, LANGUAGE_CODES } from './language-codes.js';

/** franc reads trigrams; more text than this adds time, not certainty. */
const SAMPLE_CHARACTERS = 3_000;
/**
 * Close languages (Danish and Bokmål, Malay and Indonesian, Croatian and Serbian) score close
 * together; the requested language counts as found when it scores at least this share of the best.
 */
const CLOSE_SCORE = 0.85;

const NAME_OF_CODE = new Map(Object.entries(LANGUAGE_CODES).flatMap(([name, codes]) => codes.map((code) => [code, name.charAt(0).toUpperCase() + name.slice(1)] as const)));

/** The prose of the article (paragraphs and list items, not tables, headings or code), up to the sample size. */
function sampleOf(blocks: Parameters<Check>[0]['reading']['blocks']): string {
  let sample = '';
  for (const block of blocks) {
    if (block.kind !== 'text' || block.code || (block.tag !== 'p' && block.tag !== 'li' && block.tag !== 'blockquote')) continue;
    sample += `${block.text}\n`;
    if (sample.length >= SAMPLE_CHARACTERS) break;
  }
  return sample;
}

/** Not judged: a language name we have no code for, too few words (`minLanguageWords`), or text franc cannot place. */
export const languageCheck: Check = ({ article, reading, options }) => {
  const requested = article.request.language;
  const codes = languageCodes(requested);
  if (codes === undefined) return [];
  const sample = sampleOf(reading.blocks);
  if (countWords(sample).total < options.minLanguageWords) return [];
  const scores = francAll(sample, { minLength: 10 });
  const [best, bestScore] = scores[0] ?? ['und', 0];
  if (best === 'und' || codes.includes(best)) return [];
  const requestedScore = Math.max(0, ...scores.filter(([code]) => codes.includes(code)).map(([, score]) => score));
  if (bestScore > 0 && requestedScore / bestScore >= CLOSE_SCORE) return [];
  const detected = NAME_OF_CODE.get(best) ?? `ISO 639-3 "${best}"`;
  return [
    {
      code: 'language_mismatch',
      message: `the text reads as ${detected}, but the request asks for language "${requested}"; regenerate it (check that "${requested}" is a language the service writes), or change language`,
    },
  ];
};
