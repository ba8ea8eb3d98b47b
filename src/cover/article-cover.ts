// An article's cover (entry.data.cover): its first image when it has one, else its generated card, else none.
import type { CardFiles } from './card-files.js';

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

/** The cover, and whether a card was drawn for it (a cache miss), for the build's count. */
export async function articleCover(article: { slug: string; title: string; image: FirstImage | null }, cards: CardFiles | undefined): Promise<{ cover: ArticleCover | null; drawn: boolean | undefined }> {
  const { image } = article;
  if (image !== null) return { cover: { src: image.src, alt: image.alt, width: image.width ?? null, height: image.height ?? null, generated: false }, drawn: undefined };
  if (cards === undefined) return { cover: null, drawn: undefined };
  const card = await cards.card(article.slug, article.title);
  return { cover: { src: card.src, alt: article.title, width: card.width, height: card.height, generated: true }, drawn: card.drawn };
}
