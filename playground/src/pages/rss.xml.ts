// The RSS feed: every English article of the build (drafts and scheduled ones are not in a build's collection), newest first.
import rss from '@astrojs/rss';
import type { APIContext } from 'astro';
import { getCollection } from 'astro:content';
import { articleHref, localeOf } from '../lib/article-routes';

export async function GET(context: APIContext) {
  const articles = (await getCollection('articles')).filter((entry) => entry.data.status === 'finished' && localeOf(entry) === 'en');
  const date = (entry: (typeof articles)[number]) => entry.data.publishDate ?? entry.data.createdAt ?? new Date(0);
  return rss({
    title: 'Brew Notes',
    description: 'Everything about brewing coffee at home: an astro-article-loader playground.',
    site: context.site!,
    items: articles
      .sort((a, b) => date(b).getTime() - date(a).getTime())
      .map((entry) => ({ title: entry.data.title, description: entry.data.description, link: articleHref(entry.id), pubDate: date(entry), categories: [entry.data.category] })),
  });
}
