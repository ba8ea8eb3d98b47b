// The collection log's "said once" lines: the loader option and the manifest disagreeing on `review` or `quality`; ids with folders and no rest route.
import { describe, expect, it } from 'vitest';
import { CollectionLog } from '../../src/loader/collection-log.js';
import type { LoaderLogger } from '../../src/loader/sync-report.js';

function logged(): { log: CollectionLog; warnings: string[]; infos: string[] } {
  const warnings: string[] = [];
  const infos: string[] = [];
  const ignore = (): void => {};
  const logger: LoaderLogger = { info: (message) => void infos.push(message), debug: ignore, error: ignore, warn: (message) => void warnings.push(message) };
  return { log: new CollectionLog(logger, '/site'), warnings, infos };
}

describe('collection log: settings that differ', () => {
  it('should say once that the loader option review wins for the build, naming the manifest and what the CLI reads', () => {
    const { log, warnings } = logged();
    log.reviewSettingDiffers(true, false, '/site/articles.yaml');
    log.reviewSettingDiffers(true, false, '/site/articles.yaml');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('review: true wins for this build over review: false in articles.yaml');
    expect(warnings[0]).toContain('`approve` read the manifest');
  });

  it('should say once that the loader option quality differs from the manifest, naming it', () => {
    const { log, warnings } = logged();
    log.qualitySettingsDiffer('/site/articles.yaml');
    log.qualitySettingsDiffer('/site/articles.yaml');
    expect(warnings).toEqual([expect.stringContaining('differs from `quality:` in articles.yaml')]);
  });
});

describe('collection log: ids with folders', () => {
  it('should warn once, naming the page, its rest-route name, the error Astro will stop with and the guide', () => {
    const { log, warnings } = logged();
    const advice = { kind: 'one-segment' as const, file: '/site/src/pages/[lang]/posts/[slug].astro', param: 'slug' };
    log.restRoute(advice, 'posts', 'de/x');
    log.restRoute(advice, 'posts', 'de/x');
    expect(log.restRouteSaid).toBe(true);
    expect(warnings).toEqual([
      'src/pages/[lang]/posts/[slug].astro reads the collection "posts", whose ids have folders (de/x), but [slug] takes one path segment: Astro will stop with ' +
        '"Missing parameter: slug". Rename the page src/pages/[lang]/posts/[...slug].astro: a rest parameter takes the whole id; ' +
        'see "Several languages" in the README of astro-article-loader and its guide docs/languages-routing.md',
    ]);
  });

  it('should only inform when no page it can read takes the ids', () => {
    const { log, warnings, infos } = logged();
    log.restRoute({ kind: 'no-page-found' }, 'articles', 'de/x');
    expect(warnings).toEqual([]);
    expect(infos).toEqual([expect.stringContaining('the ids of the collection "articles" have folders (de/x): a page that takes them whole needs a rest parameter')]);
  });
});
