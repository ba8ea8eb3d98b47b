// Iframe embeds: the host allow-list and the one safe form an allowed iframe is rewritten to.

import type { Element, Properties } from 'hast';

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
const cache = new Map<string, EmbedPolicy>();

/** Compile (once per distinct list) the allow-list. Throws a plain Error describing a bad host. */
export function compileEmbedHosts(hosts: readonly string[]): EmbedPolicy {
  if (!Array.isArray(hosts)) throw new Error('a list of host names such as ["youtube.com"]');
  const key = hosts.join('\n');
  const cached = cache.get(key);
  if (cached) return cached;

  const normalised = hosts.map((host) => {
    const value = typeof host === 'string' ? host.trim().toLowerCase().replace(/\.$/, '') : '';
    if (!HOST.test(value)) throw new Error(`host names such as "youtube.com" (got ${JSON.stringify(host)})`);
    return value;
  });
  const alternatives = normalised.map((host) => host.replace(/[.]/g, '\\.')).join('|');
  const srcPattern = normalised.length
    ? new RegExp(`^https://(?:[a-z0-9-]+\\.)*(?:${alternatives})(?:[/?#]|$)`)
    : /(?!)/;
  const allowed = (hostname: string): boolean =>
    normalised.some((host) => hostname === host || hostname.endsWith('.' + host));

  const policy: EmbedPolicy = {
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
  if (cache.size > 64) cache.clear();
  cache.set(key, policy);
  return policy;
}

function titleOf(value: unknown, hostname: string): string {
  const title = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
  return title || `Embedded content (${hostname})`;
}

function dimension(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(number) && number > 0 && number <= 4096 ? number : undefined;
}
