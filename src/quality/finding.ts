// What a quality check reports: the codes, their severities and one finding's shape.
import { z } from 'zod';

/** Every check's code, in the order the guide lists them. */
export const QUALITY_CODES = [
  'keyword_missing',
  'length_out_of_range',
  'item_count_mismatch',
  'faq_missing',
  'key_takeaways_missing',
  'conclusion_present',
  'language_mismatch',
  'repeated_text',
  'near_duplicate',
  'writer_leftover',
  'heading_skip',
  'empty_section',
  'broken_internal_link',
  'image_alt_missing',
] as const;
export type QualityCode = (typeof QUALITY_CODES)[number];

/** What each code finds, for the guide's table (Markdown). */
export const QUALITY_CODE_MEANINGS: Readonly<Record<QualityCode, string>> = {
  keyword_missing: 'the target keyword is in none of: the title, the first paragraph, a heading (tolerance below); or the article has no visible text at all',
  length_out_of_range: 'the visible words are outside `lengthBand` around the words the request asks for',
  item_count_mismatch: "a list's numbered items, or a roundup's numbered products, differ from the count the request asks for",
  faq_missing: '`includeFaq` was asked for and there is no FAQ heading',
  key_takeaways_missing: '`includeKeyTakeaways` was asked for (with the introduction on) and there is no Key Takeaways heading',
  conclusion_present: '`disableConclusion` was asked for and the article has a conclusion heading',
  language_mismatch: "the text's language (franc) is not the request's `language`",
  repeated_text: 'a sentence or paragraph appears twice, or a word twice in a row',
  near_duplicate: 'two articles of the collection are so alike that they compete (both slugs and the similarity)',
  writer_leftover: '"As an AI language model", "[Insert …]", `<placeholder>` or `{placeholder}` text, "Title:" lines, Markdown left as text, lorem ipsum',
  heading_skip: 'a heading more than one level below the one before it (h2 → h4), or a body that starts below h2',
  empty_section: 'a heading with nothing under it before the next heading of the same or a higher level',
  broken_internal_link: "a link into the collection's path that is no article of the collection",
  image_alt_missing: 'an image without alt text',
};

export const SEVERITIES = ['error', 'warning'] as const;
export type Severity = (typeof SEVERITIES)[number];
/** What a code can be set to: a severity, or `off` to not run the check at all. */
export type CodeSetting = Severity | 'off';

/** One thing wrong with one article. */
export interface Finding {
  slug: string;
  code: QualityCode;
  severity: Severity;
  /** What is wrong, where, and what to do (regenerate, edit, or change the request). */
  message: string;
}

/** The findings of many articles, counted once for whoever reports them (a build's log and summary). */
export interface CountedFindings {
  /** Every finding, in the order of their articles. */
  all: Finding[];
  errors: Finding[];
  /** How many articles have any. */
  articles: number;
}

/** A finding as it is kept (in a processed record) and read back. */
export const findingSchema = z.object({ slug: z.string(), code: z.enum(QUALITY_CODES), severity: z.enum(SEVERITIES), message: z.string() });

/** A finding before its severity is looked up: checks say what they saw, the settings say how much it matters. */
export interface Observation {
  code: QualityCode;
  message: string;
}
