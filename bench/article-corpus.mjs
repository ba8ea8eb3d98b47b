// A site's worth of finished articles on disk for the benchmarks: manifest, lock file and output cache, as a finished sync leaves them.
//
// Bodies come from the emulator's own writer (so they look like the service's HTML), written for
// a few base keywords and re-keyed per article: every article has distinct content, and 10,000 of
// them take seconds to make instead of a minute.

import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importDist } from './dist-location.mjs';

const SUBJECTS = [
  'espresso', 'sourdough', 'houseplant', 'bicycle', 'budget', 'garden', 'camera', 'running', 'kitchen', 'guitar',
  'aquarium', 'hiking', 'podcast', 'laptop', 'yoga', 'chess', 'knitting', 'beekeeping', 'pottery', 'camping',
];
const ANGLES = [
  'guide for beginners', 'mistakes to avoid', 'buying checklist', 'weekly routine', 'tools compared',
  'on a budget', 'for small spaces', 'myths explained', 'step by step', 'tips from experts',
];
const BASE_BODIES = 40;

/** `count` distinct, realistic keywords. */
export function corpusKeywords(count) {
  return Array.from({ length: count }, (_, i) => {
    const subject = SUBJECTS[i % SUBJECTS.length];
    const angle = ANGLES[Math.floor(i / SUBJECTS.length) % ANGLES.length];
    return `${subject} ${angle} ${i}`;
  });
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Writes `articles.yaml`, `articles.lock.json` and `articles.cache/` into `dir` for `count`
 * finished articles. `onBody(spec, html)`, when given, is awaited with each body (e.g. to write
 * the same bodies as local files for a comparison site). Returns the manifest, the specs and the
 * lock file path. `rewrite(html, index)`, when given, changes each body before it is cached.
 */
export async function writeCachedCorpus({ dir, count, onBody, onProgress, rewrite }) {
  const [{ loadManifest }, sync, { writeArticle }, { articleRequestSchema }] = await Promise.all([
    importDist('manifest/index.js'),
    importDist('sync/index.js'),
    importDist('emulator/index.js'),
    importDist('api/index.js'),
  ]);
  await mkdir(dir, { recursive: true });
  const keywords = corpusKeywords(count);
  const manifestFile = join(dir, 'articles.yaml');
  await writeFile(manifestFile, `# ${count} articles for the benchmarks\narticles:\n${keywords.map((k) => `  - ${JSON.stringify(k)}`).join('\n')}\n`);
  const { specs } = await loadManifest(manifestFile);

  const bases = Array.from({ length: Math.min(BASE_BODIES, count) }, (_, i) => {
    const keyword = `base topic ${SUBJECTS[i % SUBJECTS.length]} ${i}`;
    return { keyword, html: writeArticle(articleRequestSchema.parse({ targetKeyword: keyword })).html };
  });
  const cache = new sync.OutputCache(join(dir, sync.CACHE_DIR_NAME));
  const lock = sync.emptyLockFile();
  const now = new Date().toISOString();
  const started = Date.now();
  // A few files at a time: enough to keep the disk busy, few enough to stay out of EMFILE.
  const width = 16;
  for (let from = 0; from < specs.length; from += width) {
    await Promise.all(
      specs.slice(from, from + width).map(async (spec, offset) => {
        const index = from + offset;
        const base = bases[index % bases.length];
        const related = [specs[(index + 1) % specs.length], specs[(index + 7) % specs.length]].map((other) => escapeHtml(other.keyword));
        // Mentions of other articles' keywords, so the site's link map has phrases to link.
        const written =
          base.html.replace(new RegExp(escapeRegExp(base.keyword), 'gi'), escapeHtml(spec.keyword)) +
          `\n<p>Readers of this page also liked our notes on ${related[0]} and on ${related[1]}.</p>\n`;
        const html = rewrite === undefined ? written : rewrite(written, index);
        const output = await cache.put({ html, polishedHtml: null, updatedAt: started + index });
        lock.articles[spec.slug] = {
          keyword: spec.keyword,
          status: 'finished',
          hash: sync.requestHash(spec.request),
          articleId: randomUUID(),
          attempt: 1,
          createdAt: now,
          updatedAt: now,
          finishedAt: now,
          output,
          request: sync.explicitParameters(spec.request),
        };
        await onBody?.(spec, html);
      }),
    );
    onProgress?.(Math.min(specs.length, from + width), specs.length);
  }
  const lockFile = join(dir, sync.LOCK_FILE_NAME);
  await sync.writeLockFile(lockFile, lock);
  return { manifestFile, lockFile, specs, keywords };
}
