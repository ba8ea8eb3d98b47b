// External links plugin: rel="noopener" plus nofollow/sponsored (or the user's choice) and an optional target.

import type { Element, Parents, Root } from 'hast';
import type { Plugin } from 'unified';
import type { ArticleType } from '../contract/article-types.js';
import { PipelineOptionError } from './errors.js';
import {
  articleTypeSchema, badTokenHint, EXTERNAL_TARGETS, readRelTokens, REL_TOKENS, relOptionSchema, targetOptionSchema, type ExternalLinkInfo, type ExternalRelOption, type ExternalTargetOption, type RelToken,
} from './external-links-options.js';
import { checkOptions, optionsObject, pluginOption } from './option-check.js';
import { plainText } from './plain-text.js';
import { isExternalHref, siteOrigins, siteSchema, type SiteOption } from './url-policy.js';

/** The tokens after `noopener` for one external link. */
export type RelPolicy = (link: ExternalLinkInfo) => RelToken[];

const AFFILIATE_TYPES: ReadonlySet<ArticleType> = new Set(['retail_product_roundup', 'retail_single_product_review']);

/** Default: product articles carry affiliate links, which search engines want marked `sponsored`. */
export const defaultRel: RelPolicy = (link) => (AFFILIATE_TYPES.has(link.articleType) ? ['sponsored'] : ['nofollow']);

/** The `rel` option as a policy (the option already checked). A function's answer is checked on every call. */
export function compileRelPolicy(option: ExternalRelOption | undefined): RelPolicy {
  if (option === undefined) return defaultRel;
  if (typeof option === 'function') {
    return (link) => {
      const result = option(link);
      const read = result === null || result === undefined ? { tokens: [] } : readRelTokens(result);
      if ('tokens' in read) return read.tokens;
      throw new PipelineOptionError(
        `The externalLinks.rel function returned a bad value for ${link.url.origin}: expected rel tokens from ${REL_TOKENS.join(', ')}${badTokenHint(read.bad)}.`,
      );
    };
  }
  const read = readRelTokens(option);
  const constant = 'tokens' in read ? read.tokens : [];
  return () => constant;
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

export {
  articleTypeSchema, EXTERNAL_TARGETS, REL_TOKENS, relOptionSchema, targetOptionSchema, type ExternalLinkInfo, type ExternalRelOption, type ExternalTargetOption, type RelToken, type RelTokens,
} from './external-links-options.js';
