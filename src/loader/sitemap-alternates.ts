// A sitemap whose entries carry the alternates their pages declare: @astrojs/sitemap's `serialize`, reading each built page's <link rel="alternate" hreflang> tags.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** A sitemap entry as @astrojs/sitemap hands it to `serialize` (its `SitemapItem`), with the members this reads and writes. */
export interface SitemapEntry {
  url: string;
  links?: { lang: string; url: string; hreflang?: string }[];
  [member: string]: unknown;
}

export interface SitemapAlternatesOptions {
  /** Astro's `outDir`, where the built pages are: `new URL('./dist/', import.meta.url)` in astro.config.mjs. */
  outDir: URL | string;
  /** Astro's `base`, which a page's URL has and its file under `outDir` has not. Default `/`. */
  base?: string;
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', '#39': "'" };

function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of tag.matchAll(/([^\s=<>"'/]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g)) {
    const value = match[2] ?? match[3] ?? match[4] ?? '';
    attributes.set(match[1]!.toLowerCase(), value.replace(/&(amp|quot|apos|lt|gt|#39);/g, (_, name: string) => ENTITIES[name]!));
  }
  return attributes;
}

/** The `<link rel="alternate" hreflang href>` tags of a page's HTML, as sitemap links (an RSS link, without hreflang, is not one). */
export function alternatesInHtml(html: string): { lang: string; url: string }[] {
  const links: { lang: string; url: string }[] = [];
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const attributes = attributesOf(tag);
    const rel = (attributes.get('rel') ?? '').toLowerCase().split(/\s+/);
    const lang = attributes.get('hreflang');
    const url = attributes.get('href');
    if (rel.includes('alternate') && lang !== undefined && url !== undefined) links.push({ lang, url });
  }
  return links;
}

/** The files a page URL may have been built to: `directory` format (`x/index.html`), `file` format (`x.html`), or the file it names. */
function candidateFiles(url: string, outDir: string, base: string): string[] {
  let path = decodeURI(new URL(url).pathname);
  const prefix = `/${base.replace(/^\/+|\/+$/g, '')}`;
  if (prefix !== '/' && (path === prefix || path.startsWith(`${prefix}/`))) path = path.slice(prefix.length) || '/';
  const bare = path.replace(/\/+$/, '');
  if (/\.html?$/.test(bare)) return [`${outDir}${bare}`];
  return [`${outDir}${bare}/index.html`, ...(bare === '' ? [] : [`${outDir}${bare}.html`])];
}

/**
 * For `sitemap({ serialize: sitemapAlternates({ outDir }) })`: gives each sitemap entry the
 * alternates its built page declares in its head (every `<link rel="alternate" hreflang href>`,
 * x-default included), so the sitemap says what the pages say, whatever their URLs. An entry whose
 * page has none (or no file, as for a custom page) is kept as it came, `links` from the sitemap's
 * own `i18n` option included.
 */
export function sitemapAlternates(options: SitemapAlternatesOptions): (entry: SitemapEntry) => Promise<SitemapEntry> {
  const outDir = (options.outDir instanceof URL ? fileURLToPath(options.outDir) : options.outDir).replace(/[/\\]+$/, '');
  const base = options.base ?? '/';
  return async (entry) => {
    for (const file of candidateFiles(entry.url, outDir, base)) {
      const html = await readFile(file, 'utf8').catch(() => undefined);
      if (html === undefined) continue;
      const links = alternatesInHtml(html);
      return links.length === 0 ? entry : { ...entry, links };
    }
    return entry;
  };
}
