// The owner's own entry data (the manifest's `data:`) valid against the loader's `dataSchema`, checked when the loader reads the manifest, before anything is paid. (A field named like a built-in one is refused by the manifest reader itself, for every command.)
import type { z } from 'astro/zod';
import { ManifestError, type Manifest, type ManifestProblem } from '../manifest/index.js';

/** The part of a zod object schema used here; zod 3 (Astro 5) and zod 4 (Astro 6, 7) both have it. */
export type DataSchema = z.ZodObject<z.ZodRawShape>;

function problemOf(manifest: Manifest, index: number, field: string, message: string): ManifestProblem {
  const spec = manifest.specs[index]!;
  return { file: manifest.file, ...(spec.source.line === undefined ? {} : { line: spec.source.line }), section: 'articles', index: spec.index, keyword: spec.keyword, field, message };
}

/** A field name as zod's issue path gives it: `category`, `tags[1]`. */
function dottedPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, segment) => (typeof segment === 'number' ? `${name}[${segment}]` : `${name}.${String(segment)}`), 'data');
}

/**
 * With a `dataSchema`, each entry's `data` must pass it. Throws one ManifestError listing every
 * problem, each naming the file, the entry and `data.<field>`.
 */
export function checkEntryData(manifest: Manifest, dataSchema: DataSchema | undefined): void {
  if (dataSchema === undefined) return;
  const problems: ManifestProblem[] = [];
  manifest.specs.forEach((spec, index) => {
    const parsed = dataSchema.safeParse(spec.data);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) problems.push(problemOf(manifest, index, dottedPath(issue.path), `${issue.message} (dataSchema)`));
  });
  if (problems.length > 0) throw new ManifestError(manifest.file, problems);
}
