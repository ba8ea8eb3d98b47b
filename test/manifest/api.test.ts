// Pins the manifest module's public surface, so a change to it is a decision, not an accident.
import { describe, expect, it } from 'vitest';
import * as manifest from '../../src/manifest/index.js';
import { ArticleLoaderError } from '../../src/errors.js';

describe('manifest public API', () => {
  it('should export exactly the documented names', () => {
    expect(Object.keys(manifest).sort()).toEqual(
      [
        'CSV_LIST_SEPARATOR',
        'DEFAULT_LOOKAHEAD',
        'MANIFEST_EXTENSIONS',
        'MAX_MANIFEST_BYTES',
        'MAX_SLUG_BYTES',
        'MAX_SLUG_LENGTH',
        'ManifestError',
        'calendarDates',
        'deriveSlug',
        'didYouMean',
        'formatManifestProblem',
        'loadManifest',
        'offSchedule',
        'parseManifest',
        'resolveInlineManifest',
        'suggestName',
        'unrecordedDates',
        'validateSlug',
        'withCalendar',
        'withRecordedSlugs',
      ].sort(),
    );
  });

  it('should make ManifestError an ArticleLoaderError with code invalid_manifest', () => {
    const error = new manifest.ManifestError('a.yaml', [{ file: 'a.yaml', section: 'file', message: 'is empty' }]);
    expect(error).toBeInstanceOf(ArticleLoaderError);
    expect(error.code).toBe('invalid_manifest');
    expect(error.name).toBe('ManifestError');
  });

  it('should read the formats the issue names, by extension', () => {
    expect([...manifest.MANIFEST_EXTENSIONS].sort()).toEqual(['.csv', '.json', '.yaml', '.yml']);
    expect(manifest.MAX_MANIFEST_BYTES).toBe(5 * 1024 * 1024);
    expect(manifest.MAX_SLUG_LENGTH).toBe(200);
  });
});
