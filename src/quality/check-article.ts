// checkArticle, the checks' entry point: reads the article once, runs each check whose code is not off, and gives each finding its severity.
import { countWords } from '../contract/word-count.js';
import { readArticle, readArticleTree } from './article-reading.js';
import type { ArticleToCheck, Check, CheckContext } from './check-context.js';
import type { Finding, Observation, QualityCode } from './finding.js';
import { imageAltCheck } from './image-alt-check.js';
import { internalLinkCheck } from './internal-link-check.js';
import { itemCountCheck } from './item-count-check.js';
import { keywordCheck } from './keyword-check.js';
import { lengthCheck } from './length-check.js';
import { emptySectionCheck, headingSkipCheck } from './outline-check.js';
import { resolveQualityOptions, type QualityOptions, type QualityOptionsInput } from './quality-options.js';
import { requestedSectionsCheck } from './requested-sections-check.js';
import { writerLeftoverCheck } from './writer-leftover-check.js';

/** The checks that need franc or retext: loaded on the first check, so importing the package does not load them. */
let textChecks: Promise<{ language: Check; repeated: Check }> | undefined;

function loadTextChecks(): Promise<{ language: Check; repeated: Check }> {
  textChecks ??= Promise.all([import('./language-check.js'), import('./repeated-text-check.js')]).then(([language, repeated]) => ({
    language: language.languageCheck,
    repeated: repeated.repeatedTextCheck,
  }));
  return textChecks;
}

/** Stand-ins when both text checks are off: franc and retext are then never loaded. */
const NO_TEXT_CHECKS = { language: () => [], repeated: () => [] };

/** Each check and the codes it can report: a check whose codes are all off does not run. */
function checksOf(text: { language: Check; repeated: Check }): readonly { codes: readonly QualityCode[]; run: Check }[] {
  return [
    { codes: ['writer_leftover'], run: writerLeftoverCheck },
    { codes: ['keyword_missing'], run: keywordCheck },
    { codes: ['language_mismatch'], run: text.language },
    { codes: ['length_out_of_range'], run: lengthCheck },
    { codes: ['item_count_mismatch'], run: itemCountCheck },
    { codes: ['faq_missing', 'key_takeaways_missing', 'conclusion_present'], run: requestedSectionsCheck },
    { codes: ['repeated_text'], run: text.repeated },
    { codes: ['heading_skip'], run: headingSkipCheck },
    { codes: ['empty_section'], run: emptySectionCheck },
    { codes: ['broken_internal_link'], run: internalLinkCheck },
    { codes: ['image_alt_missing'], run: imageAltCheck },
  ];
}

const resolved = new WeakMap<object, QualityOptions>();

/** Options resolved once per options object, however many articles share it. */
function settingsOf(options: QualityOptionsInput | QualityOptions): QualityOptions {
  let settings = resolved.get(options);
  if (settings === undefined) {
    settings = resolveQualityOptions(options);
    resolved.set(options, settings);
  }
  return settings;
}

/** Observations with their severity from the settings; a code set to `off` is dropped. */
export function withSeverity(slug: string, observations: readonly Observation[], options: QualityOptions): Finding[] {
  return observations.flatMap(({ code, message }) => {
    const severity = options.codes[code];
    return severity === 'off' ? [] : [{ slug, code, severity, message }];
  });
}

/**
 * Check one article's final HTML against what was asked for. Offline and free: no request is made.
 * `near_duplicate` needs the whole collection: see `findNearDuplicates`.
 * Throws QualityOptionError for a wrong setting (unknown code, severity or value).
 */
export async function checkArticle(article: ArticleToCheck, options: QualityOptionsInput | QualityOptions = {}): Promise<Finding[]> {
  const settings = settingsOf(options);
  const reading = article.tree === undefined ? readArticle(article.html) : readArticleTree(article.tree);
  const context: CheckContext = { article, reading, words: countWords(reading.text).total, options: settings };
  const observations: Observation[] = [];
  const needsText = settings.codes.language_mismatch !== 'off' || settings.codes.repeated_text !== 'off';
  for (const check of checksOf(needsText ? await loadTextChecks() : NO_TEXT_CHECKS)) {
    if (check.codes.every((code) => settings.codes[code] === 'off')) continue;
    observations.push(...check.run(context));
  }
  return withSeverity(article.slug, observations, settings);
}
