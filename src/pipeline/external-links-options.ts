// The options of external links that the pipeline's option checks need (rel tokens, targets, article type), without the plugin and its text extraction.
import { z } from 'zod';
import { ARTICLE_TYPES, type ArticleType } from '../contract/article-types.js';
import { rule } from './option-check.js';

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

/** The rule of an `articleType` option: one of the service's article types. */
export const articleTypeSchema = z.enum(ARTICLE_TYPES, { error: `must be one of ${ARTICLE_TYPES.join(', ')}` });

/** The rule of a `rel` option: known tokens (a string or a list), `false`, or a function. */
export const relOptionSchema = rule<ExternalRelOption>((value) => {
  if (typeof value === 'function') return undefined;
  const read = readRelTokens(value);
  return 'tokens' in read ? undefined : `must be rel tokens (${REL_TOKENS.join(', ')}), a list of them, false, or a function${badTokenHint(read.bad)}`;
});

/** The rule of a `target` option: one of the browsing-context keywords, or a function. */
export const targetOptionSchema = rule<ExternalTargetOption>((value) =>
  typeof value === 'function' || (EXTERNAL_TARGETS as readonly unknown[]).includes(value)
    ? undefined
    : `must be ${EXTERNAL_TARGETS.map((target) => `"${target}"`).join(', ')} or a function`,
);

/** A rel value's tokens, or what is wrong with it: `bad` names an unknown token (undefined: not tokens at all). */
export function readRelTokens(value: unknown): { tokens: RelToken[] } | { bad: string | undefined } {
  if (value === false) return { tokens: [] };
  const list: unknown = typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value;
  if (!Array.isArray(list)) return { bad: undefined };
  for (const token of list) {
    if (!(REL_TOKENS as readonly unknown[]).includes(token)) return { bad: String(token) };
  }
  return { tokens: list as RelToken[] };
}

export function badTokenHint(bad: string | undefined): string {
  return bad === undefined ? '' : ` (got "${bad}")`;
}
