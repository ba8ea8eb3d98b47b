// The warm-build and dev-start benchmarks' sites: one copy of bench/fixtures/warm-site per loader, over the same N article bodies.
//
// - article-loader: articleLoader({ manifest }) over a manifest, lock file and cache of N finished
//   articles, configured for a live emulator (ARTICLES_API_URL/KEY) whose request log must stay empty;
// - glob: the same N bodies as local Markdown files (raw HTML, title in front matter, the <h1>
//   removed as articleLoader removes it) through glob({ pattern: '*.md' });
// - bare: the same N bodies as .html files, each stored as it is with a digest (no pipeline at all).

import { cp, mkdir, mkdtemp, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCachedCorpus } from './article-corpus.mjs';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PACKAGE = process.env.AAL_PACKAGE === undefined ? REPO : resolve(process.env.AAL_PACKAGE);
export const VARIANTS = ['article-loader', 'glob', 'bare'];

/**
 * `root/node_modules`: links to the repository's packages, and this package (AAL_PACKAGE: another checkout with its dist/,
 * for A/B runs of a proposed change) installed as `npm install` puts it, its package.json and dist/ copied in. Not a
 * link: Vite treats a linked package as the site's own source and transforms every module of it the build loads
 * (about 0.6 s more `load()` on 50 cached articles, measured), which no installed site pays.
 */
export async function installModules(root) {
  const modules = join(root, 'node_modules');
  await mkdir(modules);
  for (const entry of await readdir(join(REPO, 'node_modules'))) {
    if (!entry.startsWith('.')) await symlink(join(REPO, 'node_modules', entry), join(modules, entry));
  }
  const installed = join(modules, 'astro-article-loader');
  await mkdir(installed);
  await cp(join(PACKAGE, 'package.json'), join(installed, 'package.json'));
  await cp(join(PACKAGE, 'dist'), join(installed, 'dist'), { recursive: true });
}

/** A copy of the fixture site with the chosen content config, and its node_modules. */
async function makeSite(root, variant) {
  await cp(join(REPO, 'bench/fixtures/warm-site'), root, { recursive: true });
  await rename(join(root, `src/content.${variant}.mjs`), join(root, 'src/content.config.mjs'));
  for (const other of VARIANTS.filter((v) => v !== variant)) await rm(join(root, `src/content.${other}.mjs`));
  await installModules(root);
}

/**
 * The three sites in a new temp dir, `articles` articles each: `{ root, sites, env, slugs }`, where
 * `env[variant]` is the environment its builds need (the article loader's points at `emulator`).
 */
export async function makeWarmSites({ articles, emulator, variants = VARIANTS }) {
  const root = await mkdtemp(join(tmpdir(), 'aal-bench-warm-'));
  const sites = Object.fromEntries(variants.map((variant) => [variant, join(root, variant)]));
  for (const variant of variants) await makeSite(sites[variant], variant);
  const bodies = Object.fromEntries(variants.filter((v) => v !== 'article-loader').map((v) => [v, join(sites[v], 'bodies')]));
  for (const dir of Object.values(bodies)) await mkdir(dir);
  const slugs = [];
  await writeCachedCorpus({
    dir: sites['article-loader'],
    count: articles,
    onBody: async (spec, html) => {
      slugs.push(spec.slug);
      const body = html.replace(/^\s*<h1\b[^>]*>[\s\S]*?<\/h1>\s*/i, '');
      if (bodies.glob !== undefined) await writeFile(join(bodies.glob, `${spec.slug}.md`), `---\ntitle: ${JSON.stringify(spec.keyword)}\n---\n\n${body}\n`);
      if (bodies.bare !== undefined) await writeFile(join(bodies.bare, `${spec.slug}.html`), body);
    },
  });
  const env = { 'article-loader': { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey }, glob: {}, bare: {} };
  return { root, sites, env, slugs };
}

/** Removes Astro's data store (a fresh CI checkout, or a first `astro dev`). */
export async function clearDataStore(site) {
  await rm(join(site, '.astro'), { recursive: true, force: true });
  await rm(join(site, 'node_modules/.astro'), { recursive: true, force: true });
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
