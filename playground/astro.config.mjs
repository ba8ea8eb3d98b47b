// The playground site. Without ARTICLES_API_KEY / ARTICLES_API_URL it builds offline against the
// loader's embedded emulator; with them, against your service (same lock file, same cache).
import { defineConfig, envField } from 'astro/config';
import sitemap from '@astrojs/sitemap';
import { articles } from 'astro-article-loader';

export default defineConfig({
  site: 'https://playground.example',
  // Two languages: English at /, German under /de/ (src/pages/de/). The manifest's entries with
  // `languages: [English, German]` give an article in each; src/lib/article-routes.ts says where each page is.
  i18n: { locales: ['en', 'de'], defaultLocale: 'en' },
  // The Articles panel in the dev toolbar and a build summary; the articles themselves are
  // configured on articleLoader() in src/content.config.ts.
  // sitemap() lists the pages a build makes: drafts and scheduled articles are not among them. Its i18n option
  // gives each entry its translations (the pages at the same path after the locale prefix: the manifest's
  // `translations: { id: '{locale}/{key}' }` keeps one path per article in both languages).
  integrations: [articles(), sitemap({ i18n: { defaultLocale: 'en', locales: { en: 'en', de: 'de' } } })],
  // Astro 7.2+: a build renders again only the pages whose getStaticPaths() cacheKey changed (see
  // src/pages/articles/[slug].astro); Astro keeps what it needs in node_modules/.astro/.
  experimental: { incrementalBuild: true },
  env: {
    schema: {
      ARTICLES_API_KEY: envField.string({ context: 'server', access: 'secret', optional: true }),
      ARTICLES_API_URL: envField.string({ context: 'server', access: 'secret', optional: true }),
    },
  },
});
