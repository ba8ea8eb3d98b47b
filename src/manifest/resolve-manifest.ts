// Turns manifest data from any format (or inline) into article specs: shape, defaults, every entry checked against the request schema, slugs — collecting every problem before throwing.
import { z } from 'zod';
import {
  ALL_PARAMETER_NAMES,
  ARTICLE_TYPES,
  POLISH_SETTING_KEYS,
  articleRequestSchema,
  type ArticleRequest,
  type ArticleType,
} from '../api/request-schema.js';
import type { ArticleSpec, Manifest } from './article-spec.js';
import { describeValue, issueMessage, quoted } from './issue-messages.js';
import type { DataPath, ManifestDocument } from './manifest-document.js';
import { ManifestError, type ManifestProblem } from './manifest-error.js';
import { parameterSchema, typesAccepting } from './parameter-kinds.js';
import { deriveSlug, keywordIdentity, slugIdentity, validateSlug } from './slug.js';
import { suggestName } from './suggestion.js';

const SECTIONS = ['defaults', 'articles'];
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
const ENTRY_NAMES = ['keyword', 'slug', ...ALL_PARAMETER_NAMES];
const articleTypeSchema = z.enum(ARTICLE_TYPES);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** `polishSettings.humanize`, `urls[1]`, `outline[0].title`. */
function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, segment) => {
    if (typeof segment === 'number') return `${name}[${segment}]`;
    return name === '' ? String(segment) : `${name}.${String(segment)}`;
  }, '');
}

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
    const suggestion = suggestName(name, POLISH_SETTING_KEYS);
    return `is not a polish setting${suggestion ? `; did you mean "${suggestion}"?` : `; the settings are ${POLISH_SETTING_KEYS.join(', ')}`}`;
  }
  if (parent.length > 0) return 'is not allowed here; remove it';
  const owners = typesAccepting(name);
  if (owners.length > 0 && articleType !== undefined) {
    return `applies only to articleType ${quotedList(owners)}, but this entry is "${articleType}"; set \`articleType: ${owners[0]}\` or remove it`;
  }
  const suggestion = suggestName(name, ENTRY_NAMES);
  return `is not a request parameter${suggestion ? `; did you mean "${suggestion}"?` : '; check the spelling, or remove it'}`;
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
  const control = keyword.match(/[\p{Cc}\u2028\u2029]/u)?.[0];
  if (control !== undefined) {
    const name = control === '\n' || control === '\r' ? 'a line break' : `the control character U+${control.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`;
    return `contains ${name}; a keyword is one line of text`;
  }
  return undefined;
}

interface Draft {
  index: number;
  /** Valid and trimmed, or undefined when the entry's keyword has a problem. */
  keyword?: string;
  slug?: string;
  slugIsExplicit: boolean;
  articleType?: ArticleType;
  request?: ArticleRequest;
  line?: number;
}

/**
 * Validates manifest data and resolves it into specs. Throws one `ManifestError` listing every
 * problem (including those the format reader found) when there is any.
 */
export function resolveManifestDocument(document: ManifestDocument, file: string): Manifest {
  const problems: ManifestProblem[] = [...document.problems];
  const lineOf = (path: DataPath): { line?: number } => {
    const position = document.locate(path);
    return position ? { line: position.line } : {};
  };
  const add = (problem: Omit<ManifestProblem, 'file'>, path?: DataPath) => problems.push({ file, ...(path ? lineOf(path) : {}), ...problem });
  const fail = (): never => {
    throw new ManifestError(file, problems);
  };

  const root = document.data;
  if (root === undefined) return fail();
  if (root === null) {
    add({ section: 'file', message: 'has no content (only comments?); a manifest lists its keywords under `articles:`' });
    return fail();
  }
  if (Array.isArray(root)) {
    add({ section: 'top-level', message: 'is a list, but a manifest is a mapping: put `articles:` first and the list under it' }, []);
    return fail();
  }
  if (!isPlainObject(root)) {
    add(
      {
        section: 'top-level',
        message: `is ${describeValue(root, document.literal([]))}, but a manifest is a mapping with \`articles:\` (a list of keywords) and optionally \`defaults:\``,
      },
      [],
    );
    return fail();
  }

  for (const key of Object.keys(root)) {
    if (SECTIONS.includes(key)) continue;
    let message: string;
    if (ALL_PARAMETER_NAMES.includes(key)) message = 'is a request parameter; put it under `defaults:` (for every article) or on an entry';
    else if (key === 'keyword' || key === 'slug') message = 'belongs on an entry under `articles:`';
    else {
      const suggestion = SECTION_ALIASES.get(key.toLowerCase()) ?? suggestName(key, SECTIONS);
      message = `is not part of a manifest, which has only \`defaults\` and \`articles\`${suggestion ? `; did you mean "${suggestion}"?` : '; remove it'}`;
    }
    add({ section: 'top-level', field: key, message }, [key]);
  }

  // ---- defaults: checked once, field by field; an entry later takes only those its article type accepts.
  const defaults: Record<string, unknown> = {};
  const defaultsValue = root.defaults;
  if (defaultsValue !== undefined && defaultsValue !== null) {
    if (!isPlainObject(defaultsValue)) {
      add(
        { section: 'defaults', message: `must be a mapping of request parameters (name: value), not ${describeValue(defaultsValue, document.literal(['defaults']))}` },
        ['defaults'],
      );
    } else {
      for (const [key, value] of Object.entries(withoutUndefined(defaultsValue))) {
        const at = ['defaults', key];
        const problem = (message: string, field: string = key, path: DataPath = at) => add({ section: 'defaults', field, message }, path);
        if (key === 'keyword' || key === 'targetKeyword') {
          problem('cannot be a default: every article needs its own keyword; list keywords under `articles`');
        } else if (key === 'slug') {
          problem('cannot be a default: slugs must be unique; set `slug` on an entry, or leave it out to derive it from the keyword');
        } else if (key === 'articleType') {
          const parsed = articleTypeSchema.safeParse(value);
          if (parsed.success) defaults[key] = value;
          else problem(issueMessage(parsed.error.issues[0] as z.core.$ZodIssue, value, document.literal(at)));
        } else if (!ALL_PARAMETER_NAMES.includes(key)) {
          const suggestion = suggestName(key, ALL_PARAMETER_NAMES);
          problem(`is not a request parameter${suggestion ? `; did you mean "${suggestion}"?` : '; check the spelling, or remove it'}`);
        } else if (value === null) {
          problem('has no value; give one, or remove the line');
        } else {
          const schema = parameterSchema(key);
          const parsed = schema?.safeParse(value);
          if (!parsed || parsed.success) {
            defaults[key] = value;
            continue;
          }
          for (const issue of parsed.error.issues) {
            if (issue.code === 'unrecognized_keys') {
              for (const name of issue.keys) {
                const path = [key, ...issue.path, name];
                problem(unknownNameMessage([key, ...issue.path], name, undefined), fieldName(path), ['defaults', ...(path as DataPath)]);
              }
              continue;
            }
            const path = [key, ...issue.path] as DataPath;
            problem(issueMessage(issue, valueAt(value, issue.path), document.literal(['defaults', ...path])), fieldName(path), ['defaults', ...path]);
          }
        }
      }
    }
  }
  const defaultType = (defaults.articleType as ArticleType | undefined) ?? 'blog_post';

  // ---- articles
  const articles = root.articles;
  const drafts: Draft[] = [];
  if (articles === undefined) {
    if (!Object.keys(root).some((key) => SECTION_ALIASES.get(key.toLowerCase()) === 'articles' || suggestName(key, SECTIONS) === 'articles')) {
      add({ section: 'top-level', message: 'has no `articles:` list; add one, with a keyword per line: `- best running shoes`' }, []);
    }
  } else if (articles === null) {
    add({ section: 'articles', message: 'is empty; list the keywords under it (`- best running shoes`), or write `articles: []`' }, ['articles']);
  } else if (!Array.isArray(articles)) {
    const hint = isPlainObject(articles) ? '; start each entry with "- " (a keyword, or `keyword:` and parameters)' : '';
    add({ section: 'articles', message: `must be a list, not ${describeValue(articles, document.literal(['articles']))}${hint}` }, ['articles']);
  } else {
    articles.forEach((item, index) => {
      const draft = resolveEntry(item, index);
      if (draft) drafts.push(draft);
    });
  }

  function resolveEntry(item: unknown, index: number): Draft | undefined {
    const base: DataPath = ['articles', index];
    const line = lineOf(base).line;
    let rawKeyword: unknown;
    let keywordPath = base;
    let slugValue: unknown;
    let params: Record<string, unknown> = {};

    let keywordTwice = false;
    if (isPlainObject(item)) {
      const { keyword, targetKeyword, slug, ...rest } = item;
      rawKeyword = keyword ?? targetKeyword;
      keywordPath = [...base, keyword !== undefined || targetKeyword === undefined ? 'keyword' : 'targetKeyword'];
      slugValue = slug;
      params = withoutUndefined(rest);
      keywordTwice = keyword !== undefined && targetKeyword !== undefined;
    } else {
      rawKeyword = item;
    }
    const label =
      typeof rawKeyword === 'string'
        ? rawKeyword
        : typeof rawKeyword === 'number' || typeof rawKeyword === 'boolean'
          ? (document.literal(keywordPath) ?? String(rawKeyword))
          : undefined;

    function addEntry(field: string | undefined, message: string, path: DataPath = base) {
      add({ section: 'articles', index, ...(label !== undefined ? { keyword: label.trim() } : {}), ...(field ? { field } : {}), message }, path);
    }

    if (keywordTwice) addEntry('targetKeyword', 'repeats the keyword; give only `keyword`', [...base, 'targetKeyword']);
    if (item === null || item === undefined) {
      addEntry(undefined, 'is empty; write a keyword, or remove the line');
      return undefined;
    }
    if (Array.isArray(item)) {
      addEntry(undefined, 'is a list, but an entry is a keyword or a mapping with `keyword:`; check the indentation and the "- " marks');
      return undefined;
    }

    const draft: Draft = { index, slugIsExplicit: slugValue !== undefined, ...(line !== undefined ? { line } : {}) };
    const keywordIssue = keywordProblem(rawKeyword, document.literal(keywordPath), document.format === 'yaml' && !isPlainObject(item));
    // A misspelt `keywrod:` is reported with its did-you-mean; "keyword is missing" as well would be noise.
    const misspeltKeyword = () => Object.keys(params).some((key) => suggestName(key, ENTRY_NAMES) === 'keyword');
    if (keywordIssue === undefined) draft.keyword = (rawKeyword as string).trim();
    else if (rawKeyword !== undefined || !misspeltKeyword()) addEntry('keyword', keywordIssue, keywordPath);

    if (slugValue !== undefined) {
      const slugPath = [...base, 'slug'];
      const literal = document.literal(slugPath);
      if (slugValue === null) addEntry('slug', 'has no value; write a slug, or remove `slug` to derive one from the keyword', slugPath);
      else if (typeof slugValue === 'number' || typeof slugValue === 'boolean') {
        addEntry('slug', `must be text, not ${describeValue(slugValue, literal)}; quote it: ${quoted(slugValue, literal)}`, slugPath);
      } else if (typeof slugValue !== 'string') addEntry('slug', `must be text, not ${describeValue(slugValue, literal)}`, slugPath);
      else {
        const slug = slugValue.normalize('NFC');
        const reason = validateSlug(slug);
        if (reason === undefined) draft.slug = slug;
        else addEntry('slug', `${JSON.stringify(slug)} ${reason}`, slugPath);
      }
    }

    for (const [key, value] of Object.entries(params)) {
      if (value !== null) continue;
      addEntry(key, 'has no value; give one, or remove the line to use the default', [...base, key]);
      delete params[key];
    }

    // The article type decides which defaults apply and which parameters are allowed.
    let articleType: ArticleType = defaultType;
    if (params.articleType !== undefined) {
      const parsed = articleTypeSchema.safeParse(params.articleType);
      if (!parsed.success) {
        const path = [...base, 'articleType'];
        addEntry('articleType', issueMessage(parsed.error.issues[0] as z.core.$ZodIssue, params.articleType, document.literal(path)), path);
        return draft; // without a type, which parameters are allowed is unknown: the rest is checked once it is fixed
      }
      articleType = parsed.data;
    }
    draft.articleType = articleType;

    const applicable = Object.fromEntries(
      Object.entries(defaults).filter(([key]) => key === 'articleType' || typesAccepting(key).includes(articleType)),
    );
    const merged: Record<string, unknown> = { ...applicable, ...params, articleType, targetKeyword: draft.keyword ?? 'keyword' };
    if (isPlainObject(applicable.polishSettings) && isPlainObject(params.polishSettings)) {
      merged.polishSettings = { ...applicable.polishSettings, ...params.polishSettings };
    }
    const parsed = articleRequestSchema.safeParse(merged);
    if (parsed.success) {
      if (draft.keyword !== undefined) draft.request = parsed.data;
      return draft;
    }
    const ownKeys = (parent: readonly PropertyKey[]) => Object.keys(isPlainObject(valueAt(params, parent)) ? (valueAt(params, parent) as object) : {});
    for (const issue of parsed.error.issues) {
      const [first, second] = issue.path;
      // The keyword was checked above; a default's own problem was reported once, under defaults.
      if (first === 'targetKeyword') continue;
      if (issue.code === 'unrecognized_keys') {
        const own = ownKeys(issue.path);
        for (const name of issue.keys.filter((key) => own.includes(key))) {
          const path = [...issue.path, name] as DataPath;
          addEntry(fieldName(path), unknownNameMessage(issue.path, name, articleType), [...base, ...path]);
        }
        continue;
      }
      if (typeof first !== 'string' || !Object.hasOwn(params, first)) continue;
      if (first === 'polishSettings' && second !== undefined && !ownKeys(['polishSettings']).includes(String(second))) continue;
      const path = issue.path as DataPath;
      addEntry(fieldName(path), issueMessage(issue, valueAt(merged, path), document.literal([...base, ...path])), [...base, ...path]);
    }
    return draft;
  }

  // ---- slugs: derived where absent, then everything unique
  for (const draft of drafts) {
    if (draft.slug !== undefined || draft.slugIsExplicit || draft.keyword === undefined) continue;
    const derived = deriveSlug(draft.keyword);
    const reason = derived === '' ? undefined : validateSlug(derived);
    const entry = { section: 'articles' as const, index: draft.index, keyword: draft.keyword, field: 'slug' };
    if (derived === '') add({ ...entry, message: 'cannot be derived: the keyword has no letters or digits; add `slug:` to this entry' }, ['articles', draft.index]);
    else if (reason !== undefined) {
      add({ ...entry, message: `derived from the keyword, "${derived}", ${reason.split(';')[0]}; add \`slug:\` to this entry` }, ['articles', draft.index]);
    } else draft.slug = derived;
  }

  const reference = (draft: Draft) =>
    `articles[${draft.index}]${draft.keyword === undefined ? '' : ` ${JSON.stringify(draft.keyword)}`}${draft.line === undefined ? '' : ` (line ${draft.line})`}`;
  const byKeyword = new Map<string, Draft>();
  const bySlug = new Map<string, Draft>();
  for (const draft of drafts) {
    const entry = { section: 'articles' as const, index: draft.index, ...(draft.keyword !== undefined ? { keyword: draft.keyword } : {}) };
    if (draft.keyword !== undefined) {
      const identity = keywordIdentity(draft.keyword);
      const first = byKeyword.get(identity);
      if (first) {
        add(
          { ...entry, field: 'keyword', message: `duplicates ${reference(first)}; each keyword may appear once (case and spacing are ignored), so remove one` },
          ['articles', draft.index],
        );
        continue; // its slug would repeat the same clash
      }
      byKeyword.set(identity, draft);
    }
    if (draft.slug !== undefined) {
      const identity = slugIdentity(draft.slug);
      const first = bySlug.get(identity);
      if (first) {
        const fix = draft.slugIsExplicit ? 'change one of them' : 'add a different `slug:` to one of them';
        add(
          { ...entry, field: 'slug', message: `"${draft.slug}" is also the slug of ${reference(first)}; slugs must be unique (case is ignored), so ${fix}` },
          ['articles', draft.index, ...(draft.slugIsExplicit ? ['slug'] : [])],
        );
      } else bySlug.set(identity, draft);
    }
  }

  // A default for a parameter no entry's type accepts is a forgotten `articleType`, not a harmless extra.
  const types = new Set(drafts.flatMap((draft) => (draft.articleType ? [draft.articleType] : [])));
  if (types.size > 0) {
    for (const key of Object.keys(defaults)) {
      const owners = typesAccepting(key);
      if (owners.some((type) => types.has(type))) continue;
      add(
        {
          section: 'defaults',
          field: key,
          message: `applies only to articleType ${quotedList(owners)}, and no article has that type; set \`articleType\` in defaults or on the entries, or remove it`,
        },
        ['defaults', key],
      );
    }
  }

  if (problems.length > 0) return fail();
  const specs: ArticleSpec[] = drafts.map((draft) => {
    const request = draft.request as ArticleRequest;
    return {
      slug: draft.slug as string,
      keyword: request.targetKeyword,
      request,
      index: draft.index,
      source: { file, ...(draft.line !== undefined ? { line: draft.line } : {}) },
    };
  });
  return { file, specs };
}
