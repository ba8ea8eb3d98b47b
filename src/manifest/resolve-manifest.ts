// Turns manifest data from any format (or inline) into article specs: shape, defaults, every entry checked against the request schema, slugs — collecting every problem before throwing.
import { z } from 'zod';
import {
  ALL_PARAMETER_NAMES,
  ARTICLE_TYPES,
  POLISH_SETTING_KEYS,
  articleRequestSchema,
  type ArticleRequest,
  type ArticleType,
} from '../contract/request-schema.js';
import { isPlainObject } from '../lang/plain-object.js';
import type { ArticleSpec, Manifest } from './article-spec.js';
import { markParsedRequest } from '../contract/parsed-requests.js';
import { describeValue, issueMessage, quoted } from './issue-messages.js';
import { fieldName, type DataPath, type ManifestDocument } from './manifest-document.js';
import { ManifestError, type ManifestProblem } from './manifest-error.js';
import { ineffectiveMessage, ineffectiveParameters } from './ineffective-parameters.js';
import { checkSiteDefaults, resolveSiteFields, SITE_FIELDS, type SiteFields, type SiteValues } from './site-fields.js';
import { parameterSchema, typesAccepting } from './parameter-kinds.js';
import { reviewSetting } from './review-setting.js';
import { budgetSetting, lookaheadSetting } from './budget-setting.js';
import { deriveSlug, keywordIdentity, slugIdentity, validateSlug } from './slug.js';
import { didYouMean, suggestName } from './suggestion.js';
import { keywordTextProblem, textValueProblems } from './text-hygiene.js';
import { languageDefaults, languageVariants, type LanguageDefaults } from './languages.js';
import { articleTranslation, assignTranslationIds, translationGroups, translationSettings, type TranslationDraft, type TranslationIdSettings } from './translation-ids.js';
import { formerSlug, mayHaveFormerSlug } from './former-slugs.js';

const SECTIONS = ['defaults', 'articles', 'review', 'translations', 'budget', 'lookahead'];
/** Top-level keys that are settings, not articles: their values are checked by the room that reads them (see `Manifest.settings`). */
const SETTINGS = ['quality'];
const SECTION_ALIASES: ReadonlyMap<string, string> = new Map(Object.entries({
  keywords: 'articles',
  entries: 'articles',
  posts: 'articles',
  items: 'articles',
  list: 'articles',
  default: 'defaults',
  settings: 'defaults',
  options: 'defaults',
  config: 'defaults',
  parameters: 'defaults',
}));
/** Names an entry may have besides request parameters. */
const ENTRY_NAMES = ['keyword', 'slug', 'languages', 'locale', ...SITE_FIELDS, ...ALL_PARAMETER_NAMES];
const articleTypeSchema = z.enum(ARTICLE_TYPES);

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

function withoutUndefined(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

function quotedList(values: readonly string[]): string {
  return values.map((value) => `"${value}"`).join(' or ');
}

/** A parameter the entry's article type does not take, or a name the service does not know. */
function unknownNameMessage(parent: readonly PropertyKey[], name: string, articleType: ArticleType | undefined): string {
  if (parent.length === 1 && parent[0] === 'polishSettings') {
    return `is not a polish setting${didYouMean(suggestName(name, POLISH_SETTING_KEYS), `; the settings are ${POLISH_SETTING_KEYS.join(', ')}`)}`;
  }
  if (parent.length > 0) return 'is not allowed here; remove it';
  const owners = typesAccepting(name);
  if (owners.length > 0 && articleType !== undefined) {
    return `applies only to articleType ${quotedList(owners)}, but this entry is "${articleType}"; set \`articleType: ${owners[0]}\` or remove it`;
  }
  return `is not a request parameter${didYouMean(suggestName(name, ENTRY_NAMES), '; check the spelling, or remove it')}`;
}

/** Why a keyword can't be used, with what to do; undefined when it can. */
function keywordProblem(value: unknown, literal: string | undefined, bareEntry: boolean): string | undefined {
  if (value === undefined) return 'is missing; add `keyword: <the target keyword>`';
  if (value === null) return 'has no value; write the target keyword';
  if (typeof value === 'number' || typeof value === 'boolean') {
    return `must be text, not ${describeValue(value, literal)}; quote it: ${bareEntry ? '- ' : ''}${quoted(value, literal)}`;
  }
  if (typeof value !== 'string') return `must be text, not ${describeValue(value, literal)}`;
  const keyword = value.trim();
  if (keyword === '') return 'is empty; write the target keyword, or remove the entry';
  return keywordTextProblem(keyword);
}

interface Draft {
  index: number;
  /** Valid and trimmed, or undefined when the entry's keyword has a problem. */
  keyword?: string;
  slug?: string;
  slugIsExplicit: boolean;
  /** The slug (then the id) earlier versions derived, when it differs from `slug` (see `former-slugs.ts`). */
  formerSlug?: string;
  articleType?: ArticleType;
  request?: ArticleRequest;
  line?: number;
  /** The site's own fields, defaults applied. */
  site?: SiteFields;
  /** Defaults this entry takes without effect: each field, and why (see `idleDefaultWarnings`). */
  idleDefaults?: IdleDefault[];
  /** One language of an entry with `languages` (see `languages.ts`); its slug becomes an id by the pattern. */
  translation?: TranslationDraft;
}

/** The keyword of `articles[index]` as written, when the entry has one that is text. */
function keywordOf(data: unknown, index: number): string | undefined {
  const entry: unknown = isPlainObject(data) && Array.isArray(data.articles) ? data.articles[index] : undefined;
  const keyword = isPlainObject(entry) ? (entry.keyword ?? entry.targetKeyword) : entry;
  return typeof keyword === 'string' ? keyword.trim() : undefined;
}

/** Where problems go while one manifest is checked, and where its values were written. */
class Checker {
  readonly problems: ManifestProblem[];
  /**
   * The request of an entry that gives no parameters of its own, by article type: it is the defaults' alone, so every such
   * entry of the type has that request with its own keyword. The schema runs once per type, not once per entry (a
   * 10,000-keyword manifest spent 85 ms in it).
   */
  readonly defaultRequests = new Map<ArticleType, ArticleRequest>();

  constructor(
    readonly document: ManifestDocument,
    readonly file: string,
  ) {
    // A reader knows an entry by its position; the message names it by its keyword too, as every other problem does.
    this.problems = document.problems.map((problem) => {
      const keyword = problem.section === 'articles' && problem.index !== undefined ? keywordOf(document.data, problem.index) : undefined;
      return keyword === undefined || problem.keyword !== undefined ? problem : { ...problem, keyword };
    });
  }

  lineOf(path: DataPath): { line?: number } {
    const position = this.document.locate(path);
    return position ? { line: position.line } : {};
  }

  add(problem: Omit<ManifestProblem, 'file'>, path?: DataPath): void {
    const added: ManifestProblem = { file: this.file, ...(path ? this.lineOf(path) : {}), ...problem };
    // An entry with `languages` is checked once per language: a problem they share is said once.
    const same = (other: ManifestProblem) => other.index === added.index && other.field === added.field && other.message === added.message && other.line === added.line && other.section === added.section;
    if (added.index === undefined || !this.problems.some(same)) this.problems.push(added);
  }
}

/** The root must be a mapping; returns it, or undefined after reporting why not. */
function checkRoot(root: unknown, checker: Checker): Record<string, unknown> | undefined {
  const { document } = checker;
  if (root === null) {
    checker.add({ section: 'file', message: 'has no content (only comments?); a manifest lists its keywords under `articles:`' });
  } else if (Array.isArray(root)) {
    checker.add({ section: 'top-level', message: 'is a list, but a manifest is a mapping: put `articles:` first and the list under it' }, []);
  } else if (!isPlainObject(root)) {
    const got = describeValue(root, document.literal([]));
    checker.add({ section: 'top-level', message: `is ${got}, but a manifest is a mapping with \`articles:\` (a list of keywords) and optionally \`defaults:\`` }, []);
  } else {
    for (const key of Object.keys(root)) {
      if (SECTIONS.includes(key) || SETTINGS.includes(key)) continue;
      let message: string;
      if (ALL_PARAMETER_NAMES.includes(key)) message = 'is a request parameter; put it under `defaults:` (for every article) or on an entry';
      else if (key === 'keyword' || key === 'slug') message = 'belongs on an entry under `articles:`';
      else if ((SITE_FIELDS as readonly string[]).includes(key)) message = 'belongs under `defaults:` (for every article) or on an entry';
      else {
        const suggestion = SECTION_ALIASES.get(key.toLowerCase()) ?? suggestName(key, [...SECTIONS, ...SETTINGS]);
        message = `is not part of a manifest, which has only \`defaults\`, \`articles\`, \`review\`, \`translations\`, \`budget\`, \`lookahead\` and \`quality\`${didYouMean(suggestion, '; remove it')}`;
      }
      checker.add({ section: 'top-level', field: key, message }, [key]);
    }
    return root;
  }
  return undefined;
}

/** `defaults` checked: the request parameters as written, and the site's own fields. */
interface ResolvedDefaults {
  params: Record<string, unknown>;
  site: SiteValues;
  languages: LanguageDefaults;
}

/**
 * Checks `defaults` once, field by field, and returns the valid ones as written. Each entry later
 * takes only the defaults its article type accepts, so one manifest can mix types.
 */
function resolveDefaults(value: unknown, checker: Checker): ResolvedDefaults {
  const none = { params: {}, site: {}, languages: { locales: new Map(), perLanguage: new Map() } };
  if (value === undefined || value === null) return none;
  const { document } = checker;
  if (!isPlainObject(value)) {
    const got = describeValue(value, document.literal(['defaults']));
    checker.add({ section: 'defaults', message: `must be a mapping of request parameters (name: value), not ${got}` }, ['defaults']);
    return none;
  }
  const { data, draft, publishDate, schedule, refreshAfter, ...all } = value;
  const site = checkSiteDefaults(withoutUndefined({ data, draft, publishDate, schedule, refreshAfter }), (field, message) =>
    checker.add({ section: 'defaults', field, message }, ['defaults', ...field.split('.')]),
  );
  const { params, languages } = languageDefaults(all, (field, message, path) => checker.add({ section: 'defaults', field, message }, path));
  return { params: resolveDefaultParameters(params, checker), site, languages };
}

/** The request parameters of `defaults`, checked one by one; the valid ones as written. */
function resolveDefaultParameters(value: Record<string, unknown>, checker: Checker): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  const { document } = checker;
  for (const [key, parameter] of Object.entries(withoutUndefined(value))) {
    const problem = (message: string, path: DataPath = [key]) =>
      checker.add({ section: 'defaults', field: fieldName(path), message }, ['defaults', ...path]);
    const textProblems = textValueProblems(parameter, [key]);
    if (textProblems.length > 0) {
      for (const text of textProblems) problem(text.message, text.path);
      continue;
    }
    if (key === 'keyword' || key === 'targetKeyword') {
      problem('cannot be a default: every article needs its own keyword; list keywords under `articles`');
    } else if (key === 'slug') {
      problem('cannot be a default: slugs must be unique; set `slug` on an entry, or leave it out to derive it from the keyword');
    } else if (key === 'articleType') {
      const parsed = articleTypeSchema.safeParse(parameter);
      if (parsed.success) defaults[key] = parameter;
      else problem(issueMessage(parsed.error.issues[0] as z.core.$ZodIssue, parameter, document.literal(['defaults', key])));
    } else if (!ALL_PARAMETER_NAMES.includes(key)) {
      problem(`is not a request parameter${didYouMean(suggestName(key, ALL_PARAMETER_NAMES), '; check the spelling, or remove it')}`);
    } else if (parameter === null) {
      problem('has no value; give one, or remove the line');
    } else {
      const parsed = parameterSchema(key)?.safeParse(parameter);
      if (!parsed || parsed.success) {
        defaults[key] = parameter;
        continue;
      }
      for (const issue of parsed.error.issues) {
        const names = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
        for (const name of names) {
          const path = [key, ...issue.path, ...(name === undefined ? [] : [name])] as DataPath;
          problem(
            name === undefined
              ? issueMessage(issue, valueAt(parameter, issue.path), document.literal(['defaults', ...path]))
              : unknownNameMessage([key, ...issue.path], name, undefined),
            path,
          );
        }
      }
    }
  }
  return defaults;
}

/** Reports a problem of one entry: its field (if any), what is wrong, and where (by default the entry itself). */
type EntryProblem = (field: string | undefined, message: string, path?: DataPath) => void;

/** An entry split into its keyword (as written, and where), its slug and its request parameters. */
interface EntryParts {
  /** The site's own fields (data, draft, publishDate, schedule, refreshAfter): never sent, never hashed. */
  site: SiteValues;
  rawKeyword: unknown;
  keywordPath: DataPath;
  slugValue: unknown;
  params: Record<string, unknown>;
  keywordTwice: boolean;
}

function entryParts(item: unknown, base: DataPath): EntryParts {
  if (!isPlainObject(item)) return { site: {}, rawKeyword: item, keywordPath: base, slugValue: undefined, params: {}, keywordTwice: false };
  const { keyword, targetKeyword, slug, data, draft, publishDate, schedule, refreshAfter, ...rest } = item;
  return {
    site: withoutUndefined({ data, draft, publishDate, schedule, refreshAfter }),
    rawKeyword: keyword ?? targetKeyword,
    keywordPath: [...base, keyword !== undefined || targetKeyword === undefined ? 'keyword' : 'targetKeyword'],
    slugValue: slug,
    params: withoutUndefined(rest),
    keywordTwice: keyword !== undefined && targetKeyword !== undefined,
  };
}

/** How the entry is named in messages: its keyword as written, when it is one. */
function entryLabel(rawKeyword: unknown, keywordPath: DataPath, document: ManifestDocument): string | undefined {
  if (typeof rawKeyword === 'string') return rawKeyword.trim();
  if (typeof rawKeyword === 'number' || typeof rawKeyword === 'boolean') return document.literal(keywordPath) ?? String(rawKeyword);
  return undefined;
}

/** The entry's explicit slug, checked, or undefined (after reporting why). */
function checkedSlug(slugValue: unknown, base: DataPath, document: ManifestDocument, problem: EntryProblem): string | undefined {
  const slugPath = [...base, 'slug'];
  const literal = document.literal(slugPath);
  if (slugValue === null) problem('slug', 'has no value; write a slug, or remove `slug` to derive one from the keyword', slugPath);
  else if (typeof slugValue === 'number' || typeof slugValue === 'boolean') {
    problem('slug', `must be text, not ${describeValue(slugValue, literal)}; quote it: ${quoted(slugValue, literal)}`, slugPath);
  } else if (typeof slugValue !== 'string') problem('slug', `must be text, not ${describeValue(slugValue, literal)}`, slugPath);
  else {
    const slug = slugValue.normalize('NFC');
    const reason = validateSlug(slug);
    if (reason === undefined) return slug;
    problem('slug', `${JSON.stringify(slug)} ${reason}`, slugPath);
  }
  return undefined;
}

/** Reports and removes parameters with no value or with text that cannot be sent, so the request check sees only the rest. */
function dropUnsendable(params: Record<string, unknown>, base: DataPath, problem: EntryProblem): void {
  for (const [key, value] of Object.entries(params)) {
    const textProblems = value === null ? [] : textValueProblems(value, [key]);
    for (const text of textProblems) problem(fieldName(text.path), text.message, [...base, ...text.path]);
    if (value !== null && textProblems.length === 0) continue;
    if (value === null) problem(key, 'has no value; give one, or remove the line to use the default', [...base, key]);
    delete params[key];
  }
}

/** The entry's article type (which decides the defaults that apply and the parameters allowed), or undefined when it is invalid (reported). */
function entryArticleType(params: Record<string, unknown>, defaults: Record<string, unknown>, base: DataPath, document: ManifestDocument, problem: EntryProblem): ArticleType | undefined {
  if (params.articleType === undefined) return (defaults.articleType as ArticleType | undefined) ?? 'blog_post';
  const parsed = articleTypeSchema.safeParse(params.articleType);
  if (parsed.success) return parsed.data;
  const path = [...base, 'articleType'];
  problem('articleType', issueMessage(parsed.error.issues[0] as z.core.$ZodIssue, params.articleType, document.literal(path)), path);
  return undefined;
}

/** Checks one entry of `articles`; returns what is known about it (for slugs and duplicates), or undefined for an empty or nested entry. */
function resolveEntry(item: unknown, index: number, { params: defaults, site: siteDefaults }: ResolvedDefaults, checker: Checker): Draft | undefined {
  const { document } = checker;
  const base: DataPath = ['articles', index];
  const { site, rawKeyword, keywordPath, slugValue, params, keywordTwice } = entryParts(item, base);
  const label = entryLabel(rawKeyword, keywordPath, document);
  const problem: EntryProblem = (field, message, path = base) =>
    checker.add({ section: 'articles', index, ...(label !== undefined ? { keyword: label } : {}), ...(field ? { field } : {}), message }, path);

  if (item === null || item === undefined) {
    problem(undefined, 'is empty; write a keyword, or remove the line');
    return undefined;
  }
  if (Array.isArray(item)) {
    problem(undefined, 'is a list, but an entry is a keyword or a mapping with `keyword:`; check the indentation and the "- " marks');
    return undefined;
  }
  if (keywordTwice) problem('targetKeyword', 'repeats the keyword; give only `keyword`', [...base, 'targetKeyword']);

  const line = checker.lineOf(base).line;
  const draft: Draft = { index, slugIsExplicit: slugValue !== undefined, ...(line !== undefined ? { line } : {}) };
  const keywordIssue = keywordProblem(rawKeyword, document.literal(keywordPath), document.format === 'yaml' && !isPlainObject(item));
  // A misspelt `keywrod:` is reported with its did-you-mean; "keyword is missing" as well would be noise.
  const misspeltKeyword = () => Object.keys(params).some((key) => suggestName(key, ENTRY_NAMES) === 'keyword');
  if (keywordIssue === undefined) draft.keyword = (rawKeyword as string).trim();
  else if (rawKeyword !== undefined || !misspeltKeyword()) problem('keyword', keywordIssue, keywordPath);
  if (slugValue !== undefined) {
    const slug = checkedSlug(slugValue, base, document, problem);
    if (slug !== undefined) draft.slug = slug;
  }
  draft.site = resolveSiteFields(site, siteDefaults, (field, message) => problem(field, message, [...base, ...field.split('.')]));
  dropUnsendable(params, base, problem);
  const articleType = entryArticleType(params, defaults, base, document, problem);
  // Without a type, which parameters are allowed is unknown: the rest is checked once it is fixed.
  if (articleType === undefined) return draft;
  draft.articleType = articleType;
  const request = checkedRequest(params, defaults, draft, base, checker, problem);
  if (request !== undefined && draft.keyword !== undefined) draft.request = request;
  return draft;
}

/** The entry's request (its parameters over the defaults that apply to its type), or undefined after reporting the entry's own problems. */
function checkedRequest(params: Record<string, unknown>, defaults: Record<string, unknown>, draft: Draft, base: DataPath, checker: Checker, problem: EntryProblem): ArticleRequest | undefined {
  const articleType = draft.articleType!;
  const applicable = Object.fromEntries(Object.entries(defaults).filter(([key]) => typesAccepting(key).includes(articleType)));
  const merged: Record<string, unknown> = { ...applicable, ...params, articleType, targetKeyword: draft.keyword ?? 'keyword' };
  if (isPlainObject(applicable.polishSettings) && isPlainObject(params.polishSettings)) {
    merged.polishSettings = { ...applicable.polishSettings, ...params.polishSettings };
  }
  const ownParameters = Object.keys(params).length > 0;
  const known = ownParameters || draft.keyword === undefined ? undefined : checker.defaultRequests.get(articleType);
  // The keyword is the only member that differs, and it was checked (and trimmed) above as the schema would.
  const parsed = known !== undefined ? { success: true as const, data: { ...known, targetKeyword: draft.keyword! } } : articleRequestSchema.safeParse(merged);
  if (parsed.success) {
    if (known === undefined && !ownParameters && draft.keyword !== undefined) checker.defaultRequests.set(articleType, parsed.data);
    draft.idleDefaults = idleParameters(parsed.data, params, defaults, base, problem);
    return parsed.data;
  }
  const ownKeys = (parent: readonly PropertyKey[]) => {
    const value = valueAt(params, parent);
    return isPlainObject(value) ? Object.keys(value) : [];
  };
  for (const issue of parsed.error.issues) {
    const [first, second] = issue.path;
    // The keyword was checked above; a default's own problem was reported once, under defaults.
    if (first === 'targetKeyword') continue;
    if (issue.code === 'unrecognized_keys') {
      const own = ownKeys(issue.path);
      for (const name of issue.keys.filter((key) => own.includes(key))) {
        const path = [...issue.path, name] as DataPath;
        problem(fieldName(path), unknownNameMessage(issue.path, name, articleType), [...base, ...path]);
      }
      continue;
    }
    if (typeof first !== 'string' || !Object.hasOwn(params, first)) continue;
    if (first === 'polishSettings' && second !== undefined && !ownKeys(['polishSettings']).includes(String(second))) continue;
    const path = issue.path as DataPath;
    problem(fieldName(path), issueMessage(issue, valueAt(merged, path), checker.document.literal([...base, ...path])), [...base, ...path]);
  }
  return undefined;
}

/** A default an entry takes without effect, and why; `otherType`: it belongs to other article types. */
interface IdleDefault {
  field: string;
  why: string;
  otherType: boolean;
}

/**
 * Reports the entry's own parameters that would have no effect (an error: they would be paid for
 * as if they mattered), and returns the defaults it takes without effect, for one warning per default.
 */
function idleParameters(request: ArticleRequest, own: Record<string, unknown>, defaults: Record<string, unknown>, base: DataPath, problem: EntryProblem): IdleDefault[] {
  for (const item of ineffectiveParameters(request, Object.keys(own))) problem(item.field, ineffectiveMessage(item), [...base, item.field]);
  const inherited = Object.keys(defaults).filter((key) => key !== 'articleType' && !Object.hasOwn(own, key));
  const otherType = inherited.filter((key) => !typesAccepting(key).includes(request.articleType));
  return [
    ...ineffectiveParameters(request, inherited.filter((key) => !otherType.includes(key))).map(({ field, needs }) => ({ field, why: `without ${needs}`, otherType: false })),
    ...otherType.map((field) => ({ field, why: `as it applies only to articleType ${quotedList(typesAccepting(field))}`, otherType: true })),
  ];
}

/**
 * One warning per default that some entries take without effect, naming them (up to 5) and why.
 * A type-specific default that no entry can take is an error of its own (`checkUnusedDefaults`).
 */
function idleDefaultWarnings(drafts: readonly Draft[], file: string, lineOf: (path: DataPath) => { line?: number }): ManifestProblem[] {
  const groups = new Map<string, IdleDefault & { entries: string[] }>();
  for (const draft of drafts) {
    for (const { field, why, otherType } of draft.idleDefaults ?? []) {
      const key = `${field}\u0000${why}`;
      const group = groups.get(key) ?? { field, why, otherType, entries: [] };
      group.entries.push(draft.slug ?? draft.keyword ?? `articles[${draft.index}]`);
      groups.set(key, group);
    }
  }
  const types = new Set(drafts.map((draft) => draft.articleType));
  return [...groups.values()]
    .filter((group) => !group.otherType || typesAccepting(group.field).some((type) => types.has(type)))
    .map(({ field, why, entries }) => {
      const count = drafts.length === entries.length ? `every entry (${entries.length})` : `${entries.length === 1 ? '1 entry' : `${entries.length} entries`}`;
      const named = `${entries.slice(0, 5).join(', ')}${entries.length > 5 ? `, … ${entries.length - 5} more` : ''}`;
      return {
        file,
        ...lineOf(['defaults', field]),
        section: 'defaults' as const,
        field,
        message: `has no effect on ${count}: ${named}, ${why}; set it on the entries it is meant for instead`,
      };
    });
}

/**
 * Derives the slug of every entry that has none; the derived slug must pass the same checks as a given one. A translation
 * follows `translations.slugs` when the manifest sets it, every other slug the rule per script (`deriveSlug`). Where the
 * slug earlier versions derived differs and is safe, the draft keeps it as its `formerSlug`.
 */
function deriveSlugs(drafts: Draft[], checker: Checker, slugs: TranslationIdSettings['slugs']): void {
  for (const draft of drafts) {
    if (draft.slugIsExplicit || draft.keyword === undefined) continue;
    const spelling = draft.translation === undefined ? undefined : slugs;
    const derived = deriveSlug(draft.keyword, spelling === undefined ? {} : { spelling });
    const entry = { section: 'articles' as const, index: draft.index, keyword: draft.keyword, field: 'slug' };
    const reason = derived === '' ? undefined : validateSlug(derived);
    if (derived === '') {
      checker.add({ ...entry, message: 'cannot be derived: the keyword has no letters or digits; add `slug:` to this entry' }, ['articles', draft.index]);
    } else if (reason !== undefined) {
      // The reason's own advice ("choose another slug") is replaced: the fix is to give one.
      checker.add({ ...entry, message: `derived from the keyword, "${derived}", ${reason.split(';')[0]}; add \`slug:\` to this entry` }, ['articles', draft.index]);
    } else {
      draft.slug = derived;
      if (!mayHaveFormerSlug(draft.keyword, spelling === 'unicode')) continue;
      const former = formerSlug(draft.keyword, spelling === 'unicode');
      if (former !== derived && former !== '' && validateSlug(former) === undefined) draft.formerSlug = former;
    }
  }
}

/** Keywords and slugs must be unique, ignoring case (and, for keywords, spacing and width forms); the later entry names the earlier. */
function checkUniqueness(drafts: Draft[], checker: Checker): void {
  const reference = (draft: Draft) =>
    `articles[${draft.index}]${draft.keyword === undefined ? '' : ` ${JSON.stringify(draft.keyword)}`}${draft.translation === undefined ? '' : ` in ${draft.translation.language}`}${draft.line === undefined ? '' : ` (line ${draft.line})`}`;
  const byKeyword = new Map<string, Draft>();
  const bySlug = new Map<string, Draft>();
  for (const draft of drafts) {
    const entry = { section: 'articles' as const, index: draft.index, ...(draft.keyword !== undefined ? { keyword: draft.keyword } : {}) };
    if (draft.keyword !== undefined) {
      // A translation's keyword is one search in its own language: the same words in two languages are two articles.
      const identity = `${draft.translation?.locale ?? ''}\u0000${keywordIdentity(draft.keyword)}`;
      const first = byKeyword.get(identity);
      if (first) {
        const message = `duplicates ${reference(first)}; each keyword may appear once (case and spacing are ignored), so remove one`;
        checker.add({ ...entry, field: 'keyword', message }, ['articles', draft.index]);
        continue; // its slug would repeat the same clash
      }
      byKeyword.set(identity, draft);
    }
    if (draft.slug !== undefined) {
      const identity = slugIdentity(draft.slug);
      const first = bySlug.get(identity);
      if (first) {
        const fix = draft.slugIsExplicit ? 'change one of them' : 'add a different `slug:` to one of them';
        const what = draft.translation === undefined ? 'slug' : `id, in ${draft.translation.language},`;
        const message = `"${draft.slug}" is also the ${what} of ${reference(first)}; ${draft.translation === undefined ? 'slugs' : 'ids'} must be unique (case is ignored), so ${fix}`;
        checker.add({ ...entry, field: 'slug', message }, ['articles', draft.index, ...(draft.slugIsExplicit ? ['slug'] : [])]);
      } else bySlug.set(identity, draft);
    }
  }
}

/** A default for a parameter that no entry's type accepts is a forgotten `articleType`, not a harmless extra. */
function checkUnusedDefaults(defaults: Record<string, unknown>, drafts: Draft[], checker: Checker): void {
  const types = new Set(drafts.flatMap((draft) => (draft.articleType ? [draft.articleType] : [])));
  if (types.size === 0) return;
  for (const key of Object.keys(defaults)) {
    const owners = typesAccepting(key);
    if (owners.some((type) => types.has(type))) continue;
    const message = `applies only to articleType ${quotedList(owners)}, and no article has that type; set \`articleType\` in defaults or on the entries, or remove it`;
    checker.add({ section: 'defaults', field: key, message }, ['defaults', key]);
  }
}

/**
 * Validates manifest data and resolves it into specs. Throws one `ManifestError` listing every
 * problem (including those the format reader found) when there is any.
 */
export function resolveManifestDocument(document: ManifestDocument, file: string): Manifest {
  const checker = new Checker(document, file);
  const root = document.data === undefined ? undefined : checkRoot(document.data, checker);
  if (root === undefined) throw new ManifestError(file, checker.problems);

  const defaults = resolveDefaults(root.defaults, checker);
  const review = reviewSetting(root.review, document.literal(['review']));
  if (review.problem !== undefined) checker.add({ section: 'top-level', field: 'review', message: review.problem }, ['review']);
  const caps = capSettings(root, document, checker);
  const drafts: Draft[] = [];
  const articles = root.articles;
  if (articles === undefined) {
    // A misspelt `article:` has been reported with its did-you-mean already.
    const misspelt = Object.keys(root).some((key) => (SECTION_ALIASES.get(key.toLowerCase()) ?? suggestName(key, SECTIONS)) === 'articles');
    if (!misspelt) checker.add({ section: 'top-level', message: 'has no `articles:` list; add one, with a keyword per line: `- best running shoes`' }, []);
  } else if (articles === null) {
    checker.add({ section: 'articles', message: 'is empty; list the keywords under it (`- best running shoes`), or write `articles: []`' }, ['articles']);
  } else if (!Array.isArray(articles)) {
    const hint = isPlainObject(articles) ? '; start each entry with "- " (a keyword, or `keyword:` and parameters)' : '';
    checker.add({ section: 'articles', message: `must be a list, not ${describeValue(articles, document.literal(['articles']))}${hint}` }, ['articles']);
  } else {
    articles.forEach((item, index) => {
      const report = (field: string, message: string, path: DataPath) =>
        checker.add({ section: 'articles', index, ...(keywordOf(document.data, index) === undefined ? {} : { keyword: keywordOf(document.data, index) }), field, message }, path);
      for (const variant of languageVariants(item, ['articles', index], defaults.languages, report)) {
        const draft = resolveEntry(variant.item, index, defaults, checker);
        if (draft && variant.language) draft.translation = { ...variant.language };
        if (draft) drafts.push(draft);
      }
    });
  }
  const translations = translationSettings(root.translations, (field, message) => checker.add({ section: 'top-level', field, message }, field.split('.')));
  deriveSlugs(drafts, checker, translations.slugs);
  assignTranslationIds(drafts, translations.pattern, (draft, message) =>
    checker.add({ section: 'articles', index: draft.index, ...(draft.keyword === undefined ? {} : { keyword: draft.keyword }), field: 'slug', message }, ['articles', draft.index]),
  );
  checkUniqueness(drafts, checker);
  checkUnusedDefaults(defaults.params, drafts, checker);

  if (checker.problems.length > 0) throw new ManifestError(file, checker.problems);
  const warnings = idleDefaultWarnings(drafts, file, (path) => checker.lineOf(path));
  const groups = translationGroups(drafts);
  const specs = drafts.map((draft): ArticleSpec => {
    // Frozen: the spec's request is what its lock entry is keyed by, and a frozen request's hash is computed once.
    const request = markParsedRequest(deepFreeze(draft.request as ArticleRequest));
    return {
      slug: draft.slug as string,
      keyword: request.targetKeyword,
      request,
      ...(draft.site ?? { data: {}, draft: false }),
      index: draft.index,
      source: { file, ...(draft.line !== undefined ? { line: draft.line } : {}) },
      ...(draft.translation === undefined ? {} : { translation: articleTranslation(draft.translation, groups.get(draft.index)!) }),
      ...(draft.formerSlug === undefined ? {} : { formerSlug: draft.formerSlug }),
    };
  });
  return { file, specs, warnings, settings: settingsOf(root, checker), ...(review.review === undefined ? {} : { review: review.review }), ...caps };
}

/** The top-level `budget:` and `lookahead:` checked (their problems reported), as the manifest's members. */
function capSettings(root: Record<string, unknown>, document: ManifestDocument, checker: Checker): Pick<Manifest, 'budget' | 'lookahead'> {
  const topLevel = (field: string, message: string, path: string[]) => checker.add({ section: 'top-level', field, message }, path);
  const budget = budgetSetting(root.budget, (path) => document.literal(path), topLevel);
  const lookahead = lookaheadSetting(root.lookahead, topLevel);
  return { ...(budget === undefined ? {} : { budget }), ...(lookahead === undefined ? {} : { lookahead }) };
}

/** The top-level settings as written, with the line of each (the quality room checks `quality`, naming that line). */
function settingsOf(root: Record<string, unknown>, checker: Checker): Manifest['settings'] {
  return Object.fromEntries(SETTINGS.filter((key) => root[key] !== undefined).map((key) => [key, { value: root[key], ...checker.lineOf([key]) }]));
}

/** A kept manifest (a copy: see `ManifestMemo`) with its requests and translations frozen again, as `resolveManifestDocument` made them. */
export function frozenRequests(manifest: Manifest): Manifest {
  for (const spec of manifest.specs) {
    markParsedRequest(deepFreeze(spec.request));
    if (spec.translation !== undefined) deepFreeze(spec.translation);
  }
  return manifest;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
