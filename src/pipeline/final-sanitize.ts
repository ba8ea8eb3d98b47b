// Final sanitize plugin: the output checked once more against what the pipeline itself may produce.

import type { Root } from 'hast';
import { sanitize } from 'hast-util-sanitize';
import type { Plugin } from 'unified';
import { compileEmbedHosts, DEFAULT_EMBED_HOSTS, embedHostsSchema } from './embeds.js';
import { checkOptions, optionsObject, pluginOption } from './option-check.js';
import { outputSchema } from './allow-lists.js';

export interface FinalSanitizeOptions {
  /** The `embedHosts` given to `rehypeArticleSanitize`: iframes from other hosts are removed. Default `DEFAULT_EMBED_HOSTS`. */
  embedHosts?: readonly string[];
}

const optionsSchema = optionsObject({ embedHosts: embedHostsSchema.optional() });

/**
 * Defence in depth: if a plugin (or a future change to one) ever let something through, this pass
 * still removes it. The schema allows exactly the input schema plus our own additions: heading ids,
 * link `rel`/`target`, image loading hints; no `<h1>`. Run it last, before stringifying.
 */
export const rehypeArticleFinalSanitize: Plugin<[(FinalSanitizeOptions | null | undefined)?], Root> = function (options) {
  checkOptions(optionsSchema, options ?? {}, pluginOption('rehypeArticleFinalSanitize'));
  const schema = outputSchema(compileEmbedHosts(options?.embedHosts ?? DEFAULT_EMBED_HOSTS));
  return (tree) => sanitize(tree, schema) as Root;
};
