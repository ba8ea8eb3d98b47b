// An article's title as a reviewer sees it listed: its first <h1>, else its document <title>.
import { parseArticleHtml } from '../pipeline/parse.js';
import { plainText } from '../pipeline/plain-text.js';

/** The first `<h1>` of an article's HTML, else the document's `<title>`. */
export function titleOf(html: string): string | undefined {
  const { tree, documentTitle } = parseArticleHtml(html);
  const stack = [...tree.children];
  while (stack.length > 0) {
    const node = stack.shift()!;
    if (node.type !== 'element') continue;
    if (node.tagName === 'h1') return plainText(node).trim() || undefined;
    stack.unshift(...node.children);
  }
  return documentTitle;
}
