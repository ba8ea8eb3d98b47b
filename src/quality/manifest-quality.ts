// The manifest's top-level `quality:` checked against the settings' one declaration: a wrong one is a manifest problem naming file, line and option.
import { ManifestError, type Manifest } from '../manifest/index.js';
import { checkQualityOptions, type QualityOptions } from './quality-options.js';

/** The quality settings a manifest gives (its defaults when it has no `quality:`); throws a ManifestError listing every wrong one. */
export function manifestQuality(manifest: Manifest): QualityOptions {
  const given = manifest.settings?.quality;
  const checked = checkQualityOptions(given?.value ?? {});
  if (checked.ok) return checked.options;
  throw new ManifestError(
    manifest.file,
    checked.problems.map((problem) => ({
      file: manifest.file,
      ...(given?.line === undefined ? {} : { line: given.line }),
      section: 'top-level' as const,
      field: problem.option === '' ? 'quality' : `quality.${problem.option}`,
      message: `${problem.message}; the settings are in docs/quality.md`,
    })),
  );
}
