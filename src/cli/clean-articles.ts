// Which waiting articles `approve --all-clean` leaves alone: those with a finding of severity error, as `check` reports them.
import type { Manifest } from '../manifest/index.js';
import { manifestQuality } from '../quality/manifest-quality.js';
import { currentFindings } from './current-findings.js';
import type { ProjectFiles } from './project-files.js';
import { UsageError } from './usage-error.js';

/** The error codes of each of `slugs` that has an error finding (no entry: none), with the manifest's `quality:` settings. */
export async function errorFindingsOf(project: ProjectFiles<Manifest | undefined>, slugs: readonly string[]): Promise<Map<string, string[]>> {
  const { manifest } = project;
  if (manifest === undefined) throw new UsageError('approve --all-clean needs the manifest (its requests and quality: settings decide the findings); give --manifest <file>.');
  if (slugs.length === 0) return new Map();
  const findings = await currentFindings({ ...project, manifest }, manifestQuality(manifest));
  const errors = new Map<string, string[]>();
  for (const slug of slugs) {
    const codes = (findings.get(slug) ?? []).filter((finding) => finding.severity === 'error').map((finding) => finding.code);
    if (codes.length > 0) errors.set(slug, codes);
  }
  return errors;
}
