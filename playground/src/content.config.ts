import { defineCollection } from 'astro:content';
import { ARTICLES_API_KEY, ARTICLES_API_URL } from 'astro:env/server';
import { z } from 'astro/zod';
import { articleLoader } from 'astro-article-loader';
import { articleHref } from './lib/article-routes';

export const collections = {
  articles: defineCollection({
    loader: articleLoader({
      manifest: './articles.yaml',
      // Both unset (the default here): offline mode, the embedded emulator writes the articles.
      apiKey: ARTICLES_API_KEY,
      baseUrl: ARTICLES_API_URL,
      // Images are stored in public/_articles/ and committed with the site.
      downloadImages: true,
      // Each entry's own `data:` in the manifest: checked before anything is paid, and typed on entry.data.
      dataSchema: z.object({ category: z.enum(['brewing', 'gear', 'places']) }),
      // An article's page, for internal links: a German article's is under /de/ (Astro's i18n routing).
      url: articleHref,
      // Phrases that link to our own articles wherever they appear (article keywords link too).
      links: {
        'pour over': '/articles/how-to-brew-pour-over-coffee/',
        'french press': '/articles/french-press-vs-pour-over/',
        'cold brew': '/articles/how-to-make-cold-brew/',
        grinder: '/articles/best-coffee-grinders/',
        'brewing methods': '/articles/coffee-brewing-methods/',
      },
    }),
  }),
};
