// Service internal links: link suggestions from the service's endpoint, paid once per content and cached.

import { createHash } from 'node:crypto';
import type { Element, Nodes } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import { parseFragment } from 'parse5';
import { ArticleLoaderError } from '../errors.js';
import { InternalLinksError } from './errors.js';
import type { LinkEntry } from './link-map.js';
import { MIN_PHRASE_LENGTH } from './link-map.js';
import { serviceLinksOptionsSchema, type ServiceLinksCache, type ServiceLinksOptions } from './service-links-options.js';
import { plainText } from './plain-text.js';

export { serviceLinksOptionsSchema, type ServiceLinksCache, type ServiceLinksOptions };

/** What the service suggested for one content: `fetchServiceLinkSuggestions`'s answer. */
export interface ServiceLinkSuggestions {
  /** Phrases and site-relative URLs taken from the links the service inserted into the content. */
  entries: LinkEntry[];
  /** Whether the answer came from the cache (no credit spent). */
  cached: boolean;
  /** The call failed: no suggestions. */
  error?: unknown;
  /** The answer could not be stored: suggestions are there, but the next build pays again. */
  cacheError?: unknown;
}

/** The cache key of one request: sha256 of the content followed by the domain id, hex. */
export function serviceLinksCacheKey(content: string, domainId: string): string {
  return createHash('sha256').update(content + domainId).digest('hex');
}

/**
 * Ask the service (or the cache) for links in `content`; never throws. The service's HTML is not
 * adopted: only its links to the registered site are kept, as phrase → URL suggestions that the
 * internal-links plugin applies with the same rules as local links.
 */
export async function fetchServiceLinkSuggestions(content: string, options: ServiceLinksOptions): Promise<ServiceLinkSuggestions> {
  const key = serviceLinksCacheKey(content, options.domainId);
  let answer: string | undefined;
  let cached = false;
  try {
    answer = await options.cache?.get(key);
    cached = typeof answer === 'string';
    if (!cached) {
      answer = await options.link(content);
      if (typeof answer !== 'string') {
        throw new ArticleLoaderError('internal_links_bad_answer', 'The internal-links function returned no string; it must resolve to the linked HTML.');
      }
    }
  } catch (error) {
    return { entries: [], cached, error };
  }
  const entries = siteLinks(answer as string, new URL(options.siteUrl).origin);
  if (cached || !options.cache) return { entries, cached };
  try {
    await options.cache.set(key, answer as string);
  } catch (error) {
    // The credit is spent: use the answer anyway, and say the next build will pay again.
    return { entries, cached, cacheError: error };
  }
  return { entries, cached };
}

/** An error of the link step, as `onError: 'fail'` throws it and `'warn'` words it. */
export function internalLinksFailure(error: unknown, slug: string | undefined): InternalLinksError {
  const code = (error as { code?: unknown } | null)?.code;
  const reason = error instanceof Error ? error.message : String(error);
  const where = slug ? ` for article "${slug}"` : '';
  const hint =
    code === 'insufficient_credits'
      ? ' Add credits to the account, or set serviceLinks.onError to "warn" to build with local links only.'
      : code === 'plan_required'
        ? ' The plan does not include internal links: upgrade it, or remove the serviceLinks option.'
        : '';
  return new InternalLinksError(
    typeof code === 'string' ? code : 'internal_links_failed',
    `The service's internal links${where} could not be fetched: ${reason}${hint}`,
    { cause: error },
  );
}

function siteLinks(html: string, siteOrigin: string): LinkEntry[] {
  const tree = fromParse5(parseFragment(html)) as Nodes;
  const entries: LinkEntry[] = [];
  const seen = new Set<string>();
  const visit = (node: Nodes): void => {
    if (node.type !== 'element' && node.type !== 'root') return;
    if (node.type === 'element' && node.tagName === 'a') {
      const entry = suggestion(node, siteOrigin);
      if (entry && !seen.has(entry.phrase.toLowerCase())) {
        seen.add(entry.phrase.toLowerCase());
        entries.push(entry);
      }
      return;
    }
    for (const child of node.children) visit(child);
  };
  visit(tree);
  return entries;
}

function suggestion(anchor: Element, siteOrigin: string): LinkEntry | undefined {
  const href = anchor.properties.href;
  if (typeof href !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(href.trim(), siteOrigin);
  } catch {
    return undefined;
  }
  // A path starting with `//` would read as another host once written root-relative.
  if (url.origin !== siteOrigin || url.pathname.startsWith('//')) return undefined;
  const phrase = plainText(anchor);
  if (phrase.length < MIN_PHRASE_LENGTH || phrase.length > 120) return undefined;
  return { phrase, url: url.pathname + url.search + url.hash };
}
