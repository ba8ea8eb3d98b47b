// Marks one plugin leaves on a hast node for a later one: a heading's input id, a link's source, an image's remote URL.

import type { Element } from 'hast';
import type { LinkSource } from './article-data.js';

/**
 * A heading's input id lives in the node's `data`: sanitizing builds new nodes and carries `data`
 * over (a structured clone), and the headings plugin runs on those. The other marks live beside the
 * nodes, in weak maps: nothing sanitizes between setting and reading them, and the final sanitize
 * pass would otherwise clone them into the output tree for nothing.
 */
interface HeadingData {
  inputId?: string;
}

const linkSources = new WeakMap<Element, LinkSource>();
const originalSrcs = new WeakMap<Element, string>();

/** Remember a heading's input `id`, which sanitizing drops, so the headings plugin can retarget links to it. */
export function markInputId(heading: Element, id: string): void {
  heading.data = { ...heading.data, inputId: id } as Element['data'];
}

/** The heading's input id, taken off the node (nothing else is kept in a heading's data). */
export function takeInputId(heading: Element): string | undefined {
  const id = (heading.data as HeadingData | undefined)?.inputId;
  if (id !== undefined) delete heading.data;
  return id;
}

/** Record who inserted a link (`local` map or `service`); links without a mark are the article's own. */
export function markLinkSource(link: Element, source: LinkSource): void {
  linkSources.set(link, source);
}

/** Who inserted a link, if the internal-links plugin did. */
export function linkSourceOf(link: Element): LinkSource | undefined {
  return linkSources.get(link);
}

/** Record the remote URL of an image that now points at its stored copy. */
export function markOriginalSrc(image: Element, src: string): void {
  originalSrcs.set(image, src);
}

/** The remote URL a stored image came from, if it was downloaded. */
export function originalSrcOf(image: Element): string | undefined {
  return originalSrcs.get(image);
}
