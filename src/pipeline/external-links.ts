// External links plugin: rel="noopener" plus nofollow/sponsored (or the user's choice) and an optional target.

import type { Element, Parents, Root } from 'hast';
import type { Plugin } from 'unified';
import { runOf } from './article-run.js';
import { PipelineOptionError } from './errors.js';
import type { ArticleType, ExternalTargetOption } from './context.js';
import { isExternalHref } from './url-policy.js';
import { plainText } from './plain-text.js';

/** The `rel` tokens the pipeline writes; the final sanitize pass allows only these. */
export const REL_TOKENS = ['noopener', 'nofollow', 'sponsored', 'ugc', 'noreferrer', 'external'] as const;
export type RelToken = (typeof REL_TOKENS)[number];
/** One token, several separated by spaces, or a list. An empty list or `false`: `noopener` only. */
export type RelTokens = RelToken | (string & {}) | readonly RelToken[] | false;

/** What a `rel` or `target` function is told about a link to another site. */
export interface ExternalLinkInfo {
  href: string;
  readonly url: URL;
  /** The link's text. */
  readonly text: string;
  articleType: ArticleType;
}

/** The tokens after `noopener` for one external link. */
export type RelPolicy = (link: ExternalLinkInfo) => RelToken[];

const AFFILIATE_TYPES: ReadonlySet<ArticleType> = new Set(['retail_product_roundup', 'retail_single_product_review']);

/** Default: product articles carry affiliate links, which search engines want marked `sponsored`. */
export const defaultRel: RelPolicy = (link) => (AFFILIATE_TYPES.has(link.articleType) ? ['sponsored'] : ['nofollow']);

/** Validate a `rel` option once. Throws a plain Error naming the unknown token. */
export function compileRelPolicy(option: RelTokens | ((link: ExternalLinkInfo) => RelTokens | null | undefined) | undefined): RelPolicy {
  if (option === undefined) return defaultRel;
  if (typeof option === 'function') {
    return (link) => {
      const result = option(link);
      try {
        return result === null || result === undefined ? [] : tokens(result);
      } catch (error) {
        throw new PipelineOptionError(`The externalLinks.rel function returned a bad value for ${link.url.origin}: expected ${(error as Error).message}.`);
      }
    };
  }
  const constant = tokens(option);
  return () => constant;
}

function tokens(value: RelTokens): RelToken[] {
  if (value === false) return [];
  const list = typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value;
  if (!Array.isArray(list)) throw new Error(`rel tokens from ${REL_TOKENS.join(', ')}`);
  for (const token of list) {
    if (!(REL_TOKENS as readonly string[]).includes(token)) throw new Error(`rel tokens from ${REL_TOKENS.join(', ')} (got "${token}")`);
  }
  return list as RelToken[];
}

export interface ExternalLinksOptions {
  rel: RelPolicy;
  target?: ExternalTargetOption | undefined;
  articleType: ArticleType;
  internalOrigins: ReadonlySet<string>;
}

/** Mark every link to another website: `rel` = `noopener` + the policy's tokens, and `target` when configured. */
export function markExternalLinks(tree: Root, options: ExternalLinksOptions): void {
  const visit = (parent: Parents): void => {
    for (const child of parent.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'a') mark(child, options);
      else visit(child);
    }
  };
  visit(tree);
}

function mark(link: Element, options: ExternalLinksOptions): void {
  const href = link.properties.href;
  if (typeof href !== 'string' || !isExternalHref(href, options.internalOrigins)) return;
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
    articleType: options.articleType,
  };
  const rel = new Set<RelToken>(['noopener']);
  for (const token of options.rel(info)) rel.add(token);
  link.properties.rel = [...rel];
  const target = typeof options.target === 'function' ? options.target(info) : options.target;
  if (typeof target === 'string' && ['_blank', '_self', '_parent', '_top'].includes(target)) link.properties.target = target;
}

export const rehypeArticleExternalLinks: Plugin<[], Root> = function () {
  return (tree, file) => {
    const { settings } = runOf(file);
    markExternalLinks(tree, {
      rel: settings.rel,
      target: settings.target,
      articleType: settings.articleType,
      internalOrigins: settings.internalOrigins,
    });
  };
};
