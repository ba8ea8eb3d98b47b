// Iframe embeds: the host allow-list and the one safe form an allowed iframe is rewritten to.

import type { Element, Properties } from 'hast';
import { rule } from './option-check.js';

/** Embed hosts allowed in iframes when `embedHosts` is not given. Subdomains of a host are allowed too. */
export const DEFAULT_EMBED_HOSTS: readonly string[] = Object.freeze([
  'youtube.com',
  'youtube-nocookie.com',
  'player.vimeo.com',
]);

/** A compiled embed allow-list. */
export interface EmbedPolicy {
  readonly hosts: readonly string[];
  /** Matches an iframe `src` this policy produces; the final sanitize pass allows only these. */
  readonly srcPattern: RegExp;
  /** The iframe in its safe form, or undefined when its `src` is not on the allow-list. */
  rewrite(iframe: Element): Element | undefined;
}

/** Permissions the embedded players need: playback, DRM, fullscreen, picture-in-picture. Nothing else. */
export const EMBED_ALLOW = 'autoplay; encrypted-media; fullscreen; picture-in-picture';
/** Players run script in their own origin and may open their own site in a new tab; they may not navigate ours. */
export const EMBED_SANDBOX = ['allow-scripts', 'allow-same-origin', 'allow-presentation', 'allow-popups', 'allow-popups-to-escape-sandbox'];
export const EMBED_REFERRER_POLICY = 'strict-origin-when-cross-origin';

const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const HOSTS_RULE = 'must be a list of host names, e.g. ["youtube.com"]';
const cache = new Map<string, EmbedPolicy>();
// The same list object (the default, a site's option) compiles once, without a second look at its hosts.
const byList = new WeakMap<readonly string[], EmbedPolicy>();

/** A host as the allow-list keeps it (lower case, no trailing dot), or undefined when it is not a host name. */
function hostName(host: unknown): string | undefined {
  const value = typeof host === 'string' ? host.trim().toLowerCase().replace(/\.$/, '') : '';
  return HOST.test(value) ? value : undefined;
}

function hostsProblem(hosts: unknown): string | undefined {
  if (!Array.isArray(hosts)) return HOSTS_RULE;
  if (byList.has(hosts)) return undefined;
  const bad = hosts.findIndex((host) => hostName(host) === undefined);
  return bad === -1 ? undefined : `${HOSTS_RULE} (got ${JSON.stringify(hosts[bad])})`;
}

/** The rule of an `embedHosts` option: host names; a subdomain of one is allowed too, and `[]` drops every iframe. */
export const embedHostsSchema = rule<readonly string[]>(hostsProblem);

/** Compile (once per distinct list) the allow-list. Throws a plain Error describing a bad host. */
export function compileEmbedHosts(hosts: readonly string[]): EmbedPolicy {
  const known = Array.isArray(hosts) ? byList.get(hosts) : undefined;
  if (known) return known;
  const problem = hostsProblem(hosts);
  if (problem !== undefined) throw new Error(problem);
  const key = hosts.join('\n');
  let policy = cache.get(key);
  if (!policy) {
    policy = embedPolicy(hosts.map((host) => hostName(host)!));
    if (cache.size > 64) cache.clear();
    cache.set(key, policy);
  }
  byList.set(hosts, policy);
  return policy;
}

function embedPolicy(normalised: string[]): EmbedPolicy {
  const alternatives = normalised.map((host) => host.replace(/[.]/g, '\\.')).join('|');
  const srcPattern = normalised.length
    ? new RegExp(`^https://(?:[a-z0-9-]+\\.)*(?:${alternatives})(?:[/?#]|$)`)
    : /(?!)/;
  const allowed = (hostname: string): boolean =>
    normalised.some((host) => hostname === host || hostname.endsWith('.' + host));

  return {
    hosts: Object.freeze(normalised),
    srcPattern,
    rewrite(iframe) {
      const src = iframe.properties.src;
      if (typeof src !== 'string') return undefined;
      let url: URL;
      try {
        url = new URL(src.trim(), 'https://relative.invalid');
      } catch {
        return undefined;
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
      if (url.username || url.password || url.port) return undefined;
      if (!allowed(url.hostname)) return undefined;

      const properties: Properties = {
        src: `https://${url.hostname}${url.pathname}${url.search}${url.hash}`,
        title: titleOf(iframe.properties.title, url.hostname),
      };
      const width = dimension(iframe.properties.width);
      const height = dimension(iframe.properties.height);
      if (width !== undefined) properties.width = width;
      if (height !== undefined) properties.height = height;
      properties.loading = 'lazy';
      properties.referrerPolicy = EMBED_REFERRER_POLICY;
      properties.allow = EMBED_ALLOW;
      properties.allowFullScreen = true;
      properties.sandbox = [...EMBED_SANDBOX];
      return { type: 'element', tagName: 'iframe', properties, children: [] };
    },
  };
}

function titleOf(value: unknown, hostname: string): string {
  const title = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
  return title || `Embedded content (${hostname})`;
}

function dimension(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(number) && number > 0 && number <= 4096 ? number : undefined;
}
