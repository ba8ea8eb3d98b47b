// Sanitize plugin: untrusted article HTML down to the allow-listed schema, URLs and embeds made safe.

import type { Element, ElementContent, Parents, Root } from 'hast';
import { sanitize } from 'hast-util-sanitize';
import type { Plugin } from 'unified';
import { compileEmbedHosts, DEFAULT_EMBED_HOSTS, embedHostsSchema, type EmbedPolicy } from './embeds.js';
import { markInputId } from './node-marks.js';
import { checkOptions, optionsObject, pluginOption } from './option-check.js';
import { inputSchema, STRIPPED_WITH_CONTENT } from './allow-lists.js';
import { ALLOWED_SCHEMES, isAllowedUrl, normalizeUrl } from './url-policy.js';

const STRIPPED = new Set<string>(STRIPPED_WITH_CONTENT);
const HEADING = /^h[1-6]$/;
const URL_PROPERTIES = Object.keys(ALLOWED_SCHEMES) as (keyof typeof ALLOWED_SCHEMES)[];

/**
 * Make an untrusted tree safe: URLs normalised and checked against the scheme allow-list
 * case-insensitively, iframes rewritten to their safe form or removed, links without a usable
 * `href` and images without a usable `src` unwrapped or removed; then hast-util-sanitize with
 * `inputSchema`, which also drops every `id` and `name`.
 */
export function sanitizeArticleTree(tree: Root, embeds: EmbedPolicy): Root {
  prepare(tree, embeds);
  return sanitize(tree, inputSchema(embeds)) as Root;
}

export interface SanitizeOptions {
  /**
   * Hosts whose iframes are kept (exact host or any subdomain of it), rewritten to a safe form.
   * Default `DEFAULT_EMBED_HOSTS` (youtube.com, youtube-nocookie.com, player.vimeo.com); `[]` drops every iframe.
   */
  embedHosts?: readonly string[];
}

const optionsSchema = optionsObject({ embedHosts: embedHostsSchema.optional() });

/** Sanitize untrusted article HTML (see `sanitizeArticleTree`). Run it first, right after parsing. */
export const rehypeArticleSanitize: Plugin<[(SanitizeOptions | null | undefined)?], Root> = function (options) {
  checkOptions(optionsSchema, options ?? {}, pluginOption('rehypeArticleSanitize'));
  const embeds = compileEmbedHosts(options?.embedHosts ?? DEFAULT_EMBED_HOSTS);
  return (tree) => sanitizeArticleTree(tree, embeds);
};

function prepare(parent: Parents, embeds: EmbedPolicy): void {
  const children = parent.children;
  let changed = false;
  const result: ElementContent[] = [];
  for (const child of children) {
    if (child.type !== 'element') {
      result.push(child as ElementContent);
      continue;
    }
    if (STRIPPED.has(child.tagName)) {
      changed = true;
      continue;
    }
    if (child.tagName === 'iframe') {
      const safe = embeds.rewrite(normalised(child));
      if (safe) result.push(safe);
      changed = true;
      continue;
    }
    normalised(child);
    // Sanitizing drops every input id; remember a heading's, so links to it can follow it to its new id.
    if (HEADING.test(child.tagName) && typeof child.properties.id === 'string' && child.properties.id !== '') {
      markInputId(child, child.properties.id);
    }
    prepare(child, embeds);
    if (child.tagName === 'a' && child.properties.href === undefined) {
      result.push(...child.children);
      changed = true;
    } else if (child.tagName === 'img' && (typeof child.properties.src !== 'string' || child.properties.src === '')) {
      changed = true;
    } else {
      result.push(child);
    }
  }
  if (changed) parent.children = result as typeof parent.children;
}

function normalised(element: Element): Element {
  const properties = element.properties;
  for (const name of URL_PROPERTIES) {
    const value = properties[name];
    if (value === undefined || value === null) continue;
    const url = typeof value === 'string' ? normalizeUrl(value) : '';
    if (url !== '' && isAllowedUrl(url, ALLOWED_SCHEMES[name])) properties[name] = url;
    else delete properties[name];
  }
  return element;
}
