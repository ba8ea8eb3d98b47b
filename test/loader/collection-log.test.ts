// The collection log: its "said once" lines (the loader option and the manifest disagreeing on `review` or `quality`; ids with folders and no rest route), and the warning of cover cards that lack a font.
import { describe, expect, it } from 'vitest';
import { CollectionLog, emptyCounts } from '../../src/loader/collection-log.js';
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

describe('collection log: cover cards without their font', () => {
  it('should warn once per missing font, naming its articles, the script and the package to install', () => {
    const { log, warnings } = logged();
    const need = { script: 'Japanese', package: '@fontsource-variable/noto-sans-jp', example: 'コ' };
    const counts = { ...emptyCounts(), cardsCached: 7 };
    counts.cardsLacking.set(need.package, { need, slugs: ['ja/a', 'ja/b', 'ja/c', 'ja/d', 'ja/e', 'ja/f', 'ja/g'] });
    log.entries(counts);
    expect(warnings).toEqual([
      'cover cards of "ja/a", "ja/b", "ja/c", "ja/d", "ja/e" and 2 more: no font for Japanese (such as "コ"), so the card leaves those letters out; run `npm install @fontsource-variable/noto-sans-jp`, and the next build draws them again',
    ]);
    log.entries(emptyCounts());
    expect(warnings).toHaveLength(1);
  });

  it('should say of a script no font package sets which letters the card leaves out', () => {
    const { log, warnings } = logged();
    const counts = emptyCounts();
    counts.cardsLacking.set('', { need: { script: 'the script of U+0BA4', package: undefined, example: 'த' }, slugs: ['ta/kapi'] });
    log.entries(counts);
    expect(warnings).toEqual(['cover cards of "ta/kapi": no font for letters such as "த" (U+0BA4), so the card leaves them out; the loader knows no font package for their script']);
  });
});
