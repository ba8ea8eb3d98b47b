// heading_skip and empty_section: the outline a reader and a screen reader follow.
import { quote } from './article-reading.js';
import type { Check } from './check-context.js';
import type { Observation } from './finding.js';
import { capped } from './check-context.js';

/** The page's title is the h1, so the body's first heading should be an h2 (or the h1 itself). */
const TITLE_LEVEL = 1;

export const headingSkipCheck: Check = ({ reading }) => {
  const found: Observation[] = [];
  let previous: { level: number; text: string | undefined } = { level: TITLE_LEVEL, text: undefined };
  for (const block of reading.blocks) {
    if (block.kind !== 'heading') continue;
    if (block.level > previous.level + 1) {
      const after = previous.text === undefined ? 'the title (h1)' : `the h${previous.level} ${quote(previous.text, 50)}`;
      found.push({
        code: 'heading_skip',
        message: `the heading ${quote(block.text, 50)} is an h${block.level} right after ${after}; edit it to an h${previous.level + 1}`,
      });
    }
    previous = { level: block.level, text: block.text };
  }
  return capped(found);
};

/** A heading followed by a heading of the same or a higher level (or by the end): nothing under it. */
export const emptySectionCheck: Check = ({ reading }) => {
  const found: Observation[] = [];
  const { blocks } = reading;
  blocks.forEach((block, index) => {
    if (block.kind !== 'heading') return;
    const next = blocks[index + 1];
    if (next !== undefined && (next.kind === 'text' || next.level > block.level)) return;
    found.push({
      code: 'empty_section',
      message: `the heading ${quote(block.text, 50)} has nothing under it${next === undefined ? ' (it ends the article)' : ''}; edit the article to fill or remove the section, or regenerate it`,
    });
  });
  return capped(found);
};
