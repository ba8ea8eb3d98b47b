// An article's cover (entry.data.cover): its first image when it has one, else its generated card, else none.
import type { CardFiles } from './card-files.js';
import type { FontNeed } from './card-fonts.js';

/** `entry.data.cover`. */
export interface ArticleCover {
  src: string;
  alt: string;
  width: number | null;
  height: number | null;
  /** True for a generated card; false for the article's own first image. */
  generated: boolean;
}

/** The article's first image (`entry.data.image`), as the pipeline gave it. */
export interface FirstImage {
  src: string;
  alt: string;
  width?: number;
  height?: number;
}

/** The cover; whether a card was drawn for it (a cache miss), for the build's count; what its card lacks a font for, for the build's warning. */
export async function articleCover(
  article: { slug: string; title: string; image: FirstImage | null; locale?: string | undefined },
  cards: CardFiles | undefined,
): Promise<{ cover: ArticleCover | null; drawn: boolean | undefined; missing: FontNeed[] }> {
  const { image } = article;
  if (image !== null) return { cover: { src: image.src, alt: image.alt, width: image.width ?? null, height: image.height ?? null, generated: false }, drawn: undefined, missing: [] };
  if (cards === undefined) return { cover: null, drawn: undefined, missing: [] };
  const card = await cards.card(article.slug, article.title, article.locale);
  return { cover: { src: card.src, alt: article.title, width: card.width, height: card.height, generated: true }, drawn: card.drawn, missing: card.missing };
}
