// An inspector for output HTML: parses it as a browser would and lists everything that could execute or clobber.

import type { Element, Nodes, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';

const parser = unified().use(rehypeParse, { fragment: true });
const roundTrip = unified().use(rehypeParse, { fragment: true }).use(rehypeStringify);

const FORBIDDEN_ELEMENTS = new Set([
  'script', 'style', 'object', 'embed', 'applet', 'frame', 'frameset', 'meta', 'base', 'link', 'form', 'input',
  'button', 'textarea', 'select', 'option', 'keygen', 'svg', 'math', 'template', 'noscript', 'title', 'xmp',
  'plaintext', 'noembed', 'noframes', 'portal', 'video', 'audio', 'source', 'canvas', 'isindex', 'marquee', 'h1',
  'html', 'head', 'body', 'slot', 'dialog',
]);
const URL_PROPERTIES = ['href', 'src', 'cite', 'action', 'formAction', 'data', 'poster', 'background', 'xLinkHref', 'longDesc', 'codeBase', 'manifest', 'icon', 'ping', 'srcSet', 'dynsrc', 'lowsrc'];
const FORBIDDEN_PROPERTIES = new Set(['style', 'srcDoc', 'formAction', 'action', 'srcSet', 'ping', 'xLinkHref', 'name', 'is', 'popover', 'autoFocus', 'contentEditable', 'dataBind', 'background', 'poster', 'data']);
const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto']);

export interface InspectOptions {
  /** Heading ids the pipeline reported: the only ids allowed. */
  headingIds?: readonly string[];
  /** Hosts iframes may load from. */
  embedHosts?: readonly string[];
}

/** Everything executable or clobbering in `html`, described; empty when the HTML is inert. */
export function findExecutableContent(html: string, options: InspectOptions = {}): string[] {
  const problems: string[] = [];
  const tree = parser.parse(html) as Root;
  const headingIds = new Set(options.headingIds ?? []);
  const embedHosts = options.embedHosts ?? ['youtube.com', 'youtube-nocookie.com', 'player.vimeo.com'];

  const visit = (node: Nodes): void => {
    if (node.type === 'comment') problems.push(`comment <!--${node.value}-->`);
    if (node.type === 'doctype') problems.push('doctype');
    if (node.type === 'element') inspect(node, problems, headingIds, embedHosts);
    if ('children' in node) for (const child of node.children) visit(child);
    if (node.type === 'element' && node.content) visit(node.content);
  };
  visit(tree);

  // Mutation XSS: output that reparses into something else is not what was checked.
  const reparsed = String(roundTrip.processSync(html));
  if (reparsed !== html) problems.push('output changes when parsed and serialised again (mutation risk)');
  return problems;
}

function inspect(element: Element, problems: string[], headingIds: ReadonlySet<string>, embedHosts: readonly string[]): void {
  const tag = element.tagName.toLowerCase();
  if (FORBIDDEN_ELEMENTS.has(tag)) problems.push(`<${tag}> element`);
  if (tag.includes('-') || !/^[a-z][a-z0-9]*$/.test(tag)) problems.push(`unknown element <${tag}>`);

  for (const [key, value] of Object.entries(element.properties)) {
    if (value === undefined || value === null || value === false) continue;
    if (/^on/i.test(key)) problems.push(`event handler ${key} on <${tag}>`);
    if (FORBIDDEN_PROPERTIES.has(key)) problems.push(`attribute ${key} on <${tag}>`);
    if (key === 'id' && !(/^h[2-6]$/.test(tag) && headingIds.has(String(value)))) problems.push(`id "${String(value)}" on <${tag}> that is not a heading id`);
    if (key === 'className') problems.push(`class on <${tag}>`);
    if (/^data[A-Z]/.test(key)) problems.push(`data attribute ${key} on <${tag}>`);
    if (key === 'target' && !(Array.isArray(element.properties.rel) && element.properties.rel.includes('noopener'))) problems.push('target without rel=noopener');
    if (key === 'rel' && Array.isArray(value) && value.some((token) => token === 'opener')) problems.push('rel=opener');
  }
  for (const key of URL_PROPERTIES) {
    const value = element.properties[key];
    if (value === undefined || value === null) continue;
    for (const url of Array.isArray(value) ? value : [value]) {
      const scheme = schemeOf(String(url));
      if (scheme !== undefined && !ALLOWED_SCHEMES.has(scheme)) problems.push(`${scheme}: URL in ${key} on <${tag}>`);
      if (tag !== 'a' && scheme === 'mailto') problems.push(`mailto: URL in ${key} on <${tag}>`);
    }
  }
  if (tag === 'iframe') inspectIframe(element, problems, embedHosts);
}

function inspectIframe(element: Element, problems: string[], embedHosts: readonly string[]): void {
  const src = element.properties.src;
  let host = '';
  try {
    const url = new URL(String(src));
    if (url.protocol !== 'https:') problems.push(`iframe over ${url.protocol}`);
    if (url.username || url.password || url.port) problems.push('iframe src with credentials or port');
    host = url.hostname;
  } catch {
    problems.push(`iframe without a valid absolute src (${String(src)})`);
  }
  if (host && !embedHosts.some((allowed) => host === allowed || host.endsWith('.' + allowed))) problems.push(`iframe from ${host}`);
  const sandbox = element.properties.sandbox;
  if (!Array.isArray(sandbox) || sandbox.includes('allow-top-navigation')) problems.push('iframe without a sandbox that blocks top navigation');
  if (element.properties.loading !== 'lazy') problems.push('iframe without loading=lazy');
}

/** The scheme of a URL the way a browser sees it: C0 controls and spaces trimmed, tabs and newlines removed. */
function schemeOf(value: string): string | undefined {
  const url = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  return match ? match[1]!.toLowerCase() : undefined;
}
