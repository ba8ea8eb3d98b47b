// The article pages of one language: each article with the related ones it shows, and the key that tells Astro when to render it again.
import { getCollection, type CollectionEntry } from 'astro:content';
import { articleHref, localeOf, slugOf } from './article-routes';

type Entry = CollectionEntry<'articles'>;

/** getStaticPaths() of an article route: the articles in `locale`, each with up to three related articles of the same language. */
export async function articlePages(locale: string) {
  const articles = (await getCollection('articles')).filter((entry) => localeOf(entry) === locale);
  // Related: articles this one links to or that link here first, then ones of the same type.
  const relatedTo = (entry: Entry): Entry[] => {
    const score = (other: Entry) =>
      (entry.data.links.includes(articleHref(other.id)) ? 2 : 0) +
      (other.data.links.includes(articleHref(entry.id)) ? 2 : 0) +
      (other.data.articleType === entry.data.articleType ? 1 : 0);
    return articles
      .filter((other) => other.id !== entry.id && other.data.status === 'finished')
      .map((other) => ({ other, score: score(other) }))
      .sort((a, b) => b.score - a.score || a.other.data.title.localeCompare(b.other.data.title))
      .slice(0, 3)
      .map(({ other }) => other);
  };
  return articles.map((entry) => {
    const related = relatedTo(entry);
    // With experimental.incrementalBuild (Astro 7.2+), a page is rendered again only when its key changes:
    // the article's digest and those of the related cards it shows.
    return { params: { slug: slugOf(entry.id) }, props: { entry, related }, cacheKey: [entry, ...related].map((shown) => shown.digest).join(' ') };
  });
}
