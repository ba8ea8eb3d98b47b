// Plain text of a node for titles, captions, link text and counting: what a reader sees, cheaply.

import type { Nodes } from 'hast';
import { toText } from 'hast-util-to-text';

/**
 * The node's text with block boundaries kept as line breaks (hast-util-to-text, unlike
 * hast-util-to-string, so `<p>a</p><p>b</p>` is two words), in `pre` mode: the spec's whitespace
 * collapsing, a large part of to-text's cost, is not needed to count or show short text.
 */
export function rawText(node: Nodes): string {
  return toText(node, { whitespace: 'pre' });
}

/** `rawText` on one line: whitespace runs become one space, ends trimmed. */
export function plainText(node: Nodes): string {
  return rawText(node).replace(/\s+/g, ' ').trim();
}
