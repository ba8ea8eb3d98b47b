// Final sanitize plugin: the output checked once more against what the pipeline itself may produce.

import type { Root } from 'hast';
import { sanitize } from 'hast-util-sanitize';
import type { Plugin } from 'unified';
import { runOf } from './article-run.js';
import { outputSchema } from './schema.js';

/**
 * Defence in depth: if a plugin (or a future change to one) ever let something through, this pass
 * still removes it. The schema allows exactly the input schema plus our own additions: heading ids,
 * link `rel`/`target`, image loading hints; no `<h1>`.
 */
export const rehypeArticleFinalSanitize: Plugin<[], Root> = function () {
  return (tree, file) => sanitize(tree, outputSchema(runOf(file).settings.embeds)) as Root;
};
