// Sanitize schemas: what untrusted input may contain, and what the pipeline's own output may contain.

import type { Schema } from 'hast-util-sanitize';
import { EMBED_ALLOW, EMBED_REFERRER_POLICY, EMBED_SANDBOX, type EmbedPolicy } from './embeds.js';
import { ALLOWED_SCHEMES } from './url-policy.js';
import { REL_TOKENS } from './external-links.js';

/**
 * Elements removed together with everything inside them, so no script, CSS or control text leaks.
 * (Iframes are not listed: the sanitize plugin rewrites each one to its safe form or removes it.)
 */
export const STRIPPED_WITH_CONTENT = [
  'script', 'style', 'template', 'noscript', 'svg', 'math', 'object', 'embed', 'applet',
  'frame', 'frameset', 'noframes', 'noembed', 'xmp', 'plaintext', 'listing',
  'input', 'button', 'select', 'textarea', 'option', 'optgroup', 'datalist', 'output', 'keygen', 'progress', 'meter',
  'title', 'head', 'meta', 'link', 'base', 'canvas', 'audio', 'video', 'source', 'track', 'param', 'map', 'area',
  'portal', 'slot',
] as const;

/** Elements kept. Anything else (div-like wrappers such as `article`, `form`, `font`, `center`) is unwrapped. */
const TAG_NAMES = [
  'a', 'abbr', 'aside', 'b', 'bdi', 'bdo', 'blockquote', 'br', 'caption', 'cite', 'code', 'col', 'colgroup',
  'dd', 'del', 'details', 'dfn', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure', 'h2', 'h3', 'h4', 'h5', 'h6',
  'hr', 'i', 'iframe', 'img', 'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'pre', 'q', 'rp', 'rt', 'ruby', 's', 'samp',
  'section', 'small', 'span', 'strong', 'sub', 'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead',
  'time', 'tr', 'u', 'ul', 'var', 'wbr',
];

// Elements that only mean something inside a certain parent; elsewhere they are unwrapped.
const ANCESTORS: Record<string, string[]> = {
  caption: ['table'], col: ['table'], colgroup: ['table'], tbody: ['table'], td: ['table'], tfoot: ['table'],
  th: ['table'], thead: ['table'], tr: ['table'], figcaption: ['figure'], summary: ['details'],
  dd: ['dl'], dt: ['dl'], rp: ['ruby'], rt: ['ruby'],
};

type Attributes = NonNullable<Schema['attributes']>;

// No `id`, `name`, `class`, `style`, event handlers, `srcset`, `rel`, `target`, `form*`, `xlink:*`: not listed, so dropped.
function inputAttributes(embeds: EmbedPolicy): Attributes {
  return {
    '*': ['lang', 'title', ['dir', 'ltr', 'rtl', 'auto']],
    a: ['href'],
    img: ['src', 'alt', 'width', 'height', ['loading', 'lazy', 'eager'], ['decoding', 'async', 'sync', 'auto']],
    iframe: iframeAttributes(embeds),
    blockquote: ['cite'], q: ['cite'], del: ['cite', 'dateTime'], ins: ['cite', 'dateTime'],
    td: ['colSpan', 'rowSpan'], th: ['colSpan', 'rowSpan', ['scope', 'row', 'col', 'rowgroup', 'colgroup'], 'abbr'],
    ol: ['start', 'reversed', ['type', '1', 'a', 'A', 'i', 'I']], li: ['value'],
    col: ['span'], colgroup: ['span'], time: ['dateTime'], details: ['open'],
  };
}

// Exactly the attributes embeds.rewrite produces, with its fixed values.
function iframeAttributes(embeds: EmbedPolicy): Attributes[string] {
  return [
    ['src', embeds.srcPattern], 'title', 'width', 'height', ['loading', 'lazy'],
    ['referrerPolicy', EMBED_REFERRER_POLICY], ['allow', EMBED_ALLOW], ['sandbox', ...EMBED_SANDBOX], 'allowFullScreen',
  ];
}

const PROTOCOLS = {
  href: [...ALLOWED_SCHEMES.href],
  src: [...ALLOWED_SCHEMES.src],
  cite: [...ALLOWED_SCHEMES.cite],
};

const inputSchemas = new WeakMap<EmbedPolicy, Schema>();
const outputSchemas = new WeakMap<EmbedPolicy, Schema>();

/**
 * The schema for untrusted input. Every key is set, so nothing falls back to hast-util-sanitize's
 * GitHub defaults (which allow `id`, `name`, `action`, `input`…).
 */
export function inputSchema(embeds: EmbedPolicy): Schema {
  let schema = inputSchemas.get(embeds);
  if (!schema) {
    schema = {
      allowComments: false,
      allowDoctypes: false,
      ancestors: ANCESTORS,
      attributes: inputAttributes(embeds),
      clobber: [],
      clobberPrefix: '',
      protocols: PROTOCOLS,
      required: {},
      strip: [...STRIPPED_WITH_CONTENT],
      // The input may have several <h1>; the headings plugin turns them into the title or <h2>.
      tagNames: [...TAG_NAMES, 'h1'],
    };
    inputSchemas.set(embeds, schema);
  }
  return schema;
}

/**
 * The schema for the pipeline's own output, run last as defence in depth: the input schema plus
 * exactly what the plugins add (heading ids, link rel/target, image loading hints), and no `<h1>`.
 */
export function outputSchema(embeds: EmbedPolicy): Schema {
  let schema = outputSchemas.get(embeds);
  if (!schema) {
    const attributes = inputAttributes(embeds);
    attributes.a = ['href', ['rel', ...REL_TOKENS], ['target', '_blank', '_self', '_parent', '_top']];
    attributes.img = ['src', 'alt', 'width', 'height', ['loading', 'lazy'], ['decoding', 'async'], ['fetchPriority', 'high']];
    for (const heading of ['h2', 'h3', 'h4', 'h5', 'h6']) attributes[heading] = ['id'];
    schema = { ...inputSchema(embeds), attributes, tagNames: [...TAG_NAMES] };
    outputSchemas.set(embeds, schema);
  }
  return schema;
}
