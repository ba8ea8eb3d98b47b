// The spec's article types, without the request schema: the entry schema and the pipeline's options need only the names.
export const ARTICLE_TYPES = [
  'blog_post',
  'retail_product_roundup',
  'video_article',
  'rewrite_blog_post',
  'retail_single_product_review',
  'listicle',
  'local_places_roundup',
] as const;
export type ArticleType = (typeof ARTICLE_TYPES)[number];
