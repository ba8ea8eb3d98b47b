// The playground site. Without ARTICLES_API_KEY / ARTICLES_API_URL it builds offline against the
// loader's embedded emulator; with them, against your service (same lock file, same cache).
import { defineConfig, envField } from 'astro/config';
import sitemap from '@astrojs/sitemap';
import { articles } from 'astro-article-loader';

export default defineConfig({
  site: 'https://playground.example',
  // The Articles panel in the dev toolbar and a build summary; the articles themselves are
  // configured on articleLoader() in src/content.config.ts.
  // sitemap() lists the pages a build makes: drafts and scheduled articles are not among them.
  integrations: [articles(), sitemap()],
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
