// Astro images plugin: downloaded images handed to astro:assets, which writes them out resized, in a modern format, with a srcset.
//
// Astro replaces `<img __ASTRO_IMAGE_="{json}">` in an entry's `rendered.html` with the output of its image service when
// the entry has a `filePath`, lists the image in `rendered.metadata.imagePaths` and in `assetImports`, and the JSON's
// `src` is a path Vite can import relative to that file (Astro 5.9 and later, any loader: see docs/builds.md). Run
// it after the final sanitize (which would remove the attribute), right before stringifying.

import type { Element, Parents, Root } from 'hast';
import { join, posix, relative, sep } from 'node:path';
import type { Plugin } from 'unified';
import { articleData } from './article-data.js';
import { sizeOfFile } from './image-download.js';
import { astroImagesOptionsSchema, type AstroImagesOptions } from './astro-images-options.js';
import { checkOptions, pluginOption } from './option-check.js';

export { astroImagesOptionsSchema, type AstroImagesOptions };

/** The placeholder attribute Astro's content runtime looks for. */
export const ASTRO_IMAGE_ATTRIBUTE = '__ASTRO_IMAGE_';
/** Widths of the srcset, as fractions of the image's own width (never wider than the file). */
const SRCSET_FRACTIONS = [0.5, 1];

/**
 * Turns every `<img>` whose `src` is a file under `publicPath` that is in `dir` into Astro's
 * placeholder, its attributes in the JSON (Astro passes them to `getImage`) with the file's own
 * width and height, and lists the import paths on
 * `file.data.article.imageImports` for the entry's `assetImports` and `imagePaths`.
 */
export const rehypeArticleAstroImages: Plugin<[AstroImagesOptions], Root> = function (options) {
  checkOptions(astroImagesOptionsSchema, options, pluginOption('rehypeArticleAstroImages'));
  const prefix = options.publicPath.endsWith('/') ? options.publicPath : `${options.publicPath}/`;
  const base = relative(options.from, options.dir).split(sep).join(posix.sep);
  return async (tree, file) => {
    const found: { node: Element; name: string }[] = [];
    forEachImage(tree, (node) => {
      const src = node.properties.src;
      if (typeof src !== 'string' || !src.startsWith(prefix)) return;
      const name = src.slice(prefix.length);
      // Only a plain file name in the download directory: nothing that could import another file.
      if (name !== '' && !name.includes('/') && !name.includes('\\') && !name.startsWith('.')) found.push({ node, name });
    });
    const imports: string[] = [];
    for (const { node, name } of found) {
      // The file's own size: Astro would fail the build on a missing file, and resize to a size the HTML merely reserved.
      const size = await sizeOfFile(join(options.dir, name));
      if (size.width === undefined || size.height === undefined) continue;
      const importPath = base === '' ? `./${name}` : base.startsWith('.') ? `${base}/${name}` : `./${base}/${name}`;
      node.properties = { [ASTRO_IMAGE_ATTRIBUTE]: placeholderJson(importPath, { ...node.properties, width: size.width, height: size.height }, imports.length) };
      imports.push(importPath);
    }
    articleData(file).imageImports = imports;
  };
};

/**
 * The JSON Astro reads: `src`, the image's attributes, a srcset (`widths`, `sizes`) when its width
 * is known, and `index`. `&`, `<`, `>` and `'` are written as JSON escapes, so the only character
 * reference in the attribute is the `&#x22;` of its quotes, the one every supported Astro decodes.
 */
function placeholderJson(src: string, properties: Element['properties'], index: number): string {
  const { src: _src, ...attributes } = properties;
  const props: Record<string, unknown> = { src };
  // Attribute names as HTML writes them (Astro puts them on the <img> as given).
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) props[name === 'className' ? 'class' : name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value;
  }
  // Astro makes every image lazy unless told: the first image (fetchpriority high) is loaded at once.
  if (props.fetchpriority === 'high' && props.loading === undefined) props.loading = 'eager';
  const width = Number(props.width);
  if (Number.isInteger(width) && width > 0) {
    props.widths = [...new Set(SRCSET_FRACTIONS.map((fraction) => Math.max(1, Math.round(width * fraction))))];
    props.sizes = `(min-width: ${width}px) ${width}px, 100vw`;
  }
  props.index = index;
  return JSON.stringify(props).replace(/[&<>']/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function forEachImage(parent: Parents, action: (image: Element) => void): void {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'img') action(child);
    else forEachImage(child, action);
  }
}
