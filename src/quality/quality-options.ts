// The quality checks' settings, declared once: each code's severity and each threshold, with its check, default and line in the guide.
import { z } from 'zod';
import { ArticleLoaderError } from '../errors.js';
import { documentedOptions } from '../lang/documented-options.js';
import { didYouMean, suggestName } from '../manifest/suggestion.js';
import { QUALITY_CODE_MEANINGS, QUALITY_CODES, type CodeSetting, type QualityCode } from './finding.js';

/** The codes that are errors by default: what must never go live unseen. The rest are warnings. */
export const DEFAULT_ERROR_CODES: readonly QualityCode[] = ['writer_leftover', 'language_mismatch', 'keyword_missing'];

export const CODE_SETTINGS = ['error', 'warning', 'off'] as const satisfies readonly CodeSetting[];

const documented = documentedOptions();
const setting = documented.declare;

const codeSetting = (code: QualityCode) =>
  z.enum(CODE_SETTINGS, { error: `must be ${CODE_SETTINGS.map((s) => `"${s}"`).join(', ')}` }).default(DEFAULT_ERROR_CODES.includes(code) ? 'error' : 'warning');

const codesShape = Object.fromEntries(QUALITY_CODES.map((code) => [code, codeSetting(code)])) as { [C in QualityCode]: ReturnType<typeof codeSetting> };
const ratio = (what: string) => z.number({ error: `must be a number, ${what}` });

export const qualityOptionsSchema = z.strictObject({
  ...setting('codes', z.strictObject(codesShape).prefault({}), {
    default: '`writer_leftover`, `language_mismatch`, `keyword_missing`: `error`; every other code `warning`',
    meaning: "each code → `'error'`, `'warning'` or `'off'` (not checked at all)",
  }),
  ...setting(
    'lengthBand',
    z
      .strictObject({
        below: ratio('e.g. 0.5').gt(0, { error: 'must be more than 0' }).lt(1, { error: 'must be less than 1' }).default(0.5),
        above: ratio('e.g. 1.75').gt(1, { error: 'must be more than 1' }).default(1.75),
      })
      .prefault({}),
    {
      default: '`{ below: 0.5, above: 1.75 }`',
      meaning: "`length_out_of_range` when the visible words are under `below` × or over `above` × the words the request asks for (the estimate's table)",
    },
  ),
  ...setting('nearDuplicateThreshold', ratio('e.g. 0.6').gt(0, { error: 'must be more than 0' }).max(1, { error: 'must be at most 1' }).default(0.6), {
    default: '`0.6`',
    meaning: '`near_duplicate` when two articles share at least this part of their 5-word shingles (Jaccard similarity, 0–1)',
  }),
  ...setting('minLanguageWords', z.number({ error: 'must be a whole number, e.g. 50' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be 1 or more' }).default(50), {
    default: '`50`',
    meaning: '`language_mismatch` is not judged on an article with fewer visible words (too little text to tell)',
  }),
  ...setting('minRepeatedWords', z.number({ error: 'must be a whole number, e.g. 8' }).int({ error: 'must be a whole number' }).min(2, { error: 'must be 2 or more' }).default(8), {
    default: '`8`',
    meaning: '`repeated_text` counts only sentences and paragraphs of at least this many words (short lines like "Pros" repeat by design)',
  }),
});

export type QualityOptionsInput = z.input<typeof qualityOptionsSchema>;
export type QualityOptions = z.output<typeof qualityOptionsSchema>;

/** A wrong quality setting: names the option and the value, with a did-you-mean. */
export class QualityOptionError extends ArticleLoaderError {
  constructor(message: string) {
    super('QUALITY_OPTION', message);
  }
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** The names an unknown key at `parent` could have meant. */
function namesAt(parent: string): readonly string[] {
  if (parent === '') return Object.keys(qualityOptionsSchema.shape);
  if (parent === 'codes') return QUALITY_CODES;
  if (parent === 'lengthBand') return ['below', 'above'];
  return [];
}

/** The project's did-you-mean, then a value the input begins ("warn" → "warning", "err" → "error"). */
function closestValue(input: string, values: readonly string[]): string | undefined {
  const start = input.trim().toLowerCase();
  return suggestName(input, values) ?? (start.length >= 2 ? values.find((value) => value.startsWith(start)) : undefined);
}

/** One wrong setting: the option's dotted name (`codes.keyword_missing`, '' for the whole value) and what is wrong with it. */
export interface QualityProblem {
  option: string;
  message: string;
}

function problemOf(issue: z.core.$ZodIssue): QualityProblem[] {
  const at = pathOf(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const what = at === 'codes' ? 'check code' : 'option';
      const names = namesAt(at);
      const option = at === '' ? key : `${at}.${key}`;
      return { option, message: `unknown ${what} \`${option}\`${didYouMean(suggestName(key, names), ` (the ${what}s are ${names.join(', ')})`)}` };
    });
  }
  const value = 'input' in issue ? JSON.stringify(issue.input) : undefined;
  const guess = issue.code === 'invalid_value' && typeof issue.input === 'string' ? closestValue(issue.input, issue.values.map(String)) : undefined;
  return [{ option: at, message: `\`${at || '(quality options)'}\` is ${value ?? 'wrong'}: ${issue.message}${didYouMean(guess)}` }];
}

/** Quality settings checked and defaulted, or every problem with them. */
export function checkQualityOptions(input: unknown): { ok: true; options: QualityOptions } | { ok: false; problems: QualityProblem[] } {
  const parsed = qualityOptionsSchema.safeParse(input ?? {}, { reportInput: true });
  return parsed.success ? { ok: true, options: parsed.data } : { ok: false, problems: parsed.error.issues.flatMap(problemOf) };
}

/** Validate quality settings and apply the defaults; throws one QualityOptionError listing every problem. */
export function resolveQualityOptions(input: unknown = {}, where = 'the quality options'): QualityOptions {
  const checked = checkQualityOptions(input);
  if (checked.ok) return checked.options;
  const { problems } = checked;
  const list = problems.map((problem) => `  - ${problem.message}`).join('\n');
  throw new QualityOptionError(`${where} ${problems.length === 1 ? 'have a wrong setting' : `have ${problems.length} wrong settings`}:\n${list}`);
}

/** The guide's table of settings, in declaration order: one declaration, one table. */
export function qualityOptionsTable(): string {
  return documented.table(['Option', 'Default', 'Meaning']);
}

/** The guide's table of codes with their default severity. */
export function qualityCodesTable(): string {
  const rows = QUALITY_CODES.map((code) => `| \`${code}\` | ${DEFAULT_ERROR_CODES.includes(code) ? 'error' : 'warning'} | ${QUALITY_CODE_MEANINGS[code]} |`);
  return ['| Code | Default | Finding |', '|---|---|---|', ...rows].join('\n');
}
