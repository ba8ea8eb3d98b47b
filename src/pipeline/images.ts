// Images plugin: alt text that is never empty, loading hints for Core Web Vitals, a reserved size, downloads.

import type { Element, Parents, Root } from 'hast';
import type { Plugin } from 'unified';
import { runOf, type ArticleRun } from './article-run.js';
import { displayUrl, downloadImage } from './image-download.js';
import { schemeOf } from './url-policy.js';
import { plainText } from './plain-text.js';

interface FoundImage {
  node: Element;
  /** The text of the `<figcaption>` of the `<figure>` holding the image, if any. */
  caption: string | undefined;
}

/**
 * - `alt`: kept when it has text; else the caption of the enclosing `<figure>`; else the title
 *   (with the keyword appended when the title does not contain it). A paragraph after a bare
 *   image is not taken for a caption: that would be a guess.
 * - The first image gets `fetchpriority="high"` (it is likely the LCP element) and no lazy hints;
 *   every other image gets `loading="lazy"` and `decoding="async"`.
 * - An image with neither `width` nor `height` gets the request's `imageSize`, so the browser
 *   reserves its box; one with only one of them is left alone.
 */
export function prepareImages(
  tree: Root,
  options: { title: string; keyword: string; size: { width: number; height: number } },
): Element[] {
  const images: FoundImage[] = [];
  collect(tree, undefined, images);
  const fallback = fallbackAlt(options.title, options.keyword);

  images.forEach(({ node, caption }, index) => {
    const { src, alt, width, height, loading, decoding, fetchPriority, ...rest } = node.properties;
    const text = typeof alt === 'string' ? alt.replace(/\s+/g, ' ').trim() : '';
    const sized = width === undefined && height === undefined;
    // One attribute order for every image, so equal images serialise equally.
    node.properties = {
      src,
      alt: text || caption || fallback,
      width: sized ? options.size.width : width,
      height: sized ? options.size.height : height,
      ...(index === 0 ? { fetchPriority: 'high' } : { loading: 'lazy', decoding: 'async' }),
      ...rest,
    };
  });
  return images.map((image) => image.node);
}

export const rehypeArticleImages: Plugin<[], Root> = function () {
  return async (tree, file) => {
    const run = runOf(file);
    const { settings } = run;
    const images = prepareImages(tree, { title: run.title ?? settings.keyword, keyword: settings.keyword, size: settings.imageSize });
    if (settings.downloadImages && images.length > 0) await downloadAll(images, run);
  };
};

async function downloadAll(images: Element[], run: ArticleRun): Promise<void> {
  const options = run.settings.downloadImages!;
  const byUrl = new Map<string, ReturnType<typeof downloadImage>>();
  await Promise.all(
    images.map(async (node) => {
      const src = node.properties.src as string;
      const scheme = schemeOf(src);
      if (scheme !== 'http' && scheme !== 'https') return;
      let pending = byUrl.get(src);
      if (!pending) {
        pending = downloadImage(src, options).then((result) => {
          if (!result.ok) run.warnings.push(`Image ${displayUrl(src)} was not downloaded: ${result.reason}; the remote URL is kept.`);
          return result;
        });
        byUrl.set(src, pending);
      }
      const result = await pending;
      if (result.ok) {
        node.properties.src = result.src;
        run.downloadedFrom.set(node, src);
      }
    }),
  );
}

function fallbackAlt(title: string, keyword: string): string {
  return title.toLowerCase().includes(keyword.toLowerCase()) ? title : `${title} – ${keyword}`;
}

function collect(parent: Parents, caption: string | undefined, images: FoundImage[]): void {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'img') {
      images.push({ node: child, caption });
    } else if (child.tagName === 'figure') {
      const figcaption = child.children.find((node): node is Element => node.type === 'element' && node.tagName === 'figcaption');
      const text = figcaption ? plainText(figcaption) : '';
      collect(child, text || undefined, images);
    } else if (child.tagName === 'figcaption') {
      collect(child, undefined, images);
    } else {
      collect(child, caption, images);
    }
  }
}
