// External links plugin: rel="noopener" plus nofollow/sponsored (or the user's choice) and an optional target.

import type { Element, Parents, Root } from 'hast';
import type { Plugin } from 'unified';
import { z } from 'zod';
import { ARTICLE_TYPES, type ArticleType } from '../contract/request-schema.js';
import { PipelineOptionError } from './errors.js';
import { checkOptions, optionsObject, pluginOption, rule } from './option-check.js';
import { plainText } from './plain-text.js';
import { isExternalHref, siteOrigins, siteSchema, type SiteOption } from './url-policy.js';

/** The `rel` tokens the pipeline writes; the final sanitize pass allows only these. */
export const REL_TOKENS = ['noopener', 'nofollow', 'sponsored', 'ugc', 'noreferrer', 'external'] as const;
export type RelToken = (typeof REL_TOKENS)[number];
/** One token, several separated by spaces, or a list. An empty list or `false`: `noopener` only. */
export type RelTokens = RelToken | (string & {}) | readonly RelToken[] | false;

/** The `target` values the pipeline writes. */
export const EXTERNAL_TARGETS = ['_blank', '_self', '_parent', '_top'] as const;

/** What a `rel` or `target` function is told about a link to another site. */
export interface ExternalLinkInfo {
  href: string;
  readonly url: URL;
  /** The link's text. */
  readonly text: string;
  articleType: ArticleType;
}

/** `rel` tokens for external links, or a function of the link deciding them. */
export type ExternalRelOption = RelTokens | ((link: ExternalLinkInfo) => RelTokens | null | undefined);
/** `target` for external links, or a function of the link deciding it. */
export type ExternalTargetOption = string | ((link: ExternalLinkInfo) => string | null | undefined);

/** The tokens after `noopener` for one external link. */
export type RelPolicy = (link: ExternalLinkInfo) => RelToken[];

const AFFILIATE_TYPES: ReadonlySet<ArticleType> = new Set(['retail_product_roundup', 'retail_single_product_review']);

/** Default: product articles carry affiliate links, which search engines want marked `sponsored`. */
export const defaultRel: RelPolicy = (link) => (AFFILIATE_TYPES.has(link.articleType) ? ['sponsored'] : ['nofollow']);

/** The rule of an `articleType` option: one of the service's article types. */
export const articleTypeSchema = z.enum(ARTICLE_TYPES, { error: `must be one of ${ARTICLE_TYPES.join(', ')}` });

/** The rule of a `rel` option: known tokens (a string or a list), `false`, or a function. */
export const relOptionSchema = rule<ExternalRelOption>((value) => {
  if (typeof value === 'function') return undefined;
  const read = readTokens(value);
  return 'tokens' in read ? undefined : `must be rel tokens (${REL_TOKENS.join(', ')}), a list of them, false, or a function${got(read.bad)}`;
});

/** The rule of a `target` option: one of the browsing-context keywords, or a function. */
export const targetOptionSchema = rule<ExternalTargetOption>((value) =>
  typeof value === 'function' || (EXTERNAL_TARGETS as readonly unknown[]).includes(value)
    ? undefined
    : `must be ${EXTERNAL_TARGETS.map((target) => `"${target}"`).join(', ')} or a function`,
);

/** The `rel` option as a policy (the option already checked). A function's answer is checked on every call. */
export function compileRelPolicy(option: ExternalRelOption | undefined): RelPolicy {
  if (option === undefined) return defaultRel;
  if (typeof option === 'function') {
    return (link) => {
      const result = option(link);
      const read = result === null || result === undefined ? { tokens: [] } : readTokens(result);
      if ('tokens' in read) return read.tokens;
      throw new PipelineOptionError(
        `The externalLinks.rel function returned a bad value for ${link.url.origin}: expected rel tokens from ${REL_TOKENS.join(', ')}${got(read.bad)}.`,
      );
    };
  }
  const read = readTokens(option);
  const constant = 'tokens' in read ? read.tokens : [];
  return () => constant;
}

/** A rel value's tokens, or what is wrong with it: `bad` names an unknown token (undefined: not tokens at all). */
function readTokens(value: unknown): { tokens: RelToken[] } | { bad: string | undefined } {
  if (value === false) return { tokens: [] };
  const list: unknown = typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value;
  if (!Array.isArray(list)) return { bad: undefined };
  for (const token of list) {
    if (!(REL_TOKENS as readonly unknown[]).includes(token)) return { bad: String(token) };
  }
  return { tokens: list as RelToken[] };
}

function got(bad: string | undefined): string {
  return bad === undefined ? '' : ` (got "${bad}")`;
}

export interface ExternalLinksOptions {
  /**
   * `rel` tokens added after `noopener`: `'nofollow'`, `'sponsored'`, `'ugc'`, `'noreferrer'`,
   * `'external'`, a list of them, `false`, or a function of the link. Default: `'sponsored'` in
   * `retail_product_roundup` and `retail_single_product_review` articles (affiliate links), `'nofollow'` otherwise.
   */
  rel?: ExternalRelOption;
  /** `target` (`'_blank'`, `'_self'`, `'_parent'`, `'_top'`) or a function of the link. Default: none. */
  target?: ExternalTargetOption;
  /** The article's type, which decides the default `rel` and is told to the functions. Default `'blog_post'`. */
  articleType?: ArticleType;
  /** The site's origin(s): links to them are not external. Relative links never are. Default: none. */
  site?: SiteOption;
}

const optionsSchema = optionsObject({
  target: targetOptionSchema.optional(),
  rel: relOptionSchema.optional(),
  articleType: articleTypeSchema.optional(),
  site: siteSchema.optional(),
});

/** The compiled options of `markExternalLinks`. */
export interface ExternalLinkPolicy {
  rel: RelPolicy;
  target?: ExternalTargetOption | undefined;
  articleType: ArticleType;
  internalOrigins: ReadonlySet<string>;
}

/** Mark every link to another website: `rel` = `noopener` + the policy's tokens, and `target` when configured. */
export function markExternalLinks(tree: Root, policy: ExternalLinkPolicy): void {
  const visit = (parent: Parents): void => {
    for (const child of parent.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'a') mark(child, policy);
      else visit(child);
    }
  };
  visit(tree);
}

function mark(link: Element, policy: ExternalLinkPolicy): void {
  const href = link.properties.href;
  if (typeof href !== 'string' || !isExternalHref(href, policy.internalOrigins)) return;
  let text: string | undefined;
  let url: URL | undefined;
  // Lazy: most policies only look at the article type.
  const info: ExternalLinkInfo = {
    href,
    get url() {
      return (url ??= new URL(href, 'https://relative.invalid'));
    },
    get text() {
      return (text ??= plainText(link));
    },
    articleType: policy.articleType,
  };
  const rel = new Set<RelToken>(['noopener']);
  for (const token of policy.rel(info)) rel.add(token);
  link.properties.rel = [...rel];
  const target = typeof policy.target === 'function' ? policy.target(info) : policy.target;
  if (typeof target === 'string' && (EXTERNAL_TARGETS as readonly string[]).includes(target)) link.properties.target = target;
}

/** Mark the links to other websites (see `markExternalLinks`). */
export const rehypeArticleExternalLinks: Plugin<[(ExternalLinksOptions | null | undefined)?], Root> = function (options) {
  checkOptions(optionsSchema, options ?? {}, pluginOption('rehypeArticleExternalLinks'));
  const policy: ExternalLinkPolicy = {
    rel: compileRelPolicy(options?.rel),
    target: options?.target,
    articleType: options?.articleType ?? 'blog_post',
    internalOrigins: siteOrigins(options?.site),
  };
  return (tree) => markExternalLinks(tree, policy);
};
