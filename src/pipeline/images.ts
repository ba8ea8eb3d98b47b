// Images plugin: alt text that is never empty, loading hints for Core Web Vitals, a reserved size, downloads.

import type { Element, Parents, Root } from 'hast';
import type { Plugin } from 'unified';
import { z } from 'zod';
import { imageSizeToPixels } from '../contract/image-size.js';
import { articleData } from './article-data.js';
import { checkOptions, optionsObject, pluginOption } from './option-check.js';
import { imageSizeSchema } from './option-rules.js';
import { plainText } from './plain-text.js';



export interface ImagesOptions {
  /** The article's keyword, appended to the title in a fallback alt text that lacks it. Default: none. */
  keyword?: string;
  /**
   * The title for fallback alt texts when `file.data.article.title` is not set (`rehypeArticleHeadings`
   * sets it). Default: the keyword.
   */
  title?: string;
  /**
   * The size the service generated the images at (the request's `imageSize`), given to images
   * without `width` and `height` so the browser reserves their box. Default: none, and no size is
   * invented (downloaded images get their real one from `rehypeArticleImageDownload`).
   */
  imageSize?: string;
}

const optionsSchema = optionsObject({
  keyword: z.string({ error: 'must be a string' }).optional(),
  title: z.string({ error: 'must be a string' }).optional(),
  imageSize: imageSizeSchema.optional(),
});

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
  options: { title: string; keyword: string; size: { width: number; height: number } | undefined },
): Element[] {
  const images: FoundImage[] = [];
  collect(tree, undefined, images);
  const fallback = fallbackAlt(options.title, options.keyword);

  images.forEach(({ node, caption }, index) => {
    const { src, alt, width, height, loading, decoding, fetchPriority, ...rest } = node.properties;
    const text = typeof alt === 'string' ? alt.replace(/\s+/g, ' ').trim() : '';
    const sized = width === undefined && height === undefined && options.size !== undefined;
    // One attribute order for every image, so equal images serialise equally.
    node.properties = {
      src,
      alt: text || caption || fallback,
      width: sized ? options.size!.width : width,
      height: sized ? options.size!.height : height,
      ...(index === 0 ? { fetchPriority: 'high' } : { loading: 'lazy', decoding: 'async' }),
      ...rest,
    };
  });
  return images.map((image) => image.node);
}

/** Alt text, loading hints and a reserved size for every image (see `prepareImages`). Run it after the headings. */
export const rehypeArticleImages: Plugin<[(ImagesOptions | null | undefined)?], Root> = function (options) {
  checkOptions(optionsSchema, options ?? {}, pluginOption('rehypeArticleImages'));
  const keyword = options?.keyword ?? '';
  const fallbackTitle = options?.title ?? keyword;
  // Only a size the request gives (a blog post's generated images) is reserved: never one invented.
  const size = options?.imageSize === undefined ? undefined : imageSizeToPixels(options.imageSize);
  return (tree, file) => {
    prepareImages(tree, { title: articleData(file).title ?? fallbackTitle, keyword, size });
  };
};

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
