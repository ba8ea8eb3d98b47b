// The collection log's "said once" lines: the loader option and the manifest disagreeing on `review` or `quality`.
import { describe, expect, it } from 'vitest';
import { CollectionLog } from '../../src/loader/collection-log.js';
import type { LoaderLogger } from '../../src/loader/sync-report.js';

function logged(): { log: CollectionLog; warnings: string[] } {
  const warnings: string[] = [];
  const ignore = (): void => {};
  const logger: LoaderLogger = { info: ignore, debug: ignore, error: ignore, warn: (message) => void warnings.push(message) };
  return { log: new CollectionLog(logger, '/site'), warnings };
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
