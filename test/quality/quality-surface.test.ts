// The quality room's public surface, and that importing it does not load franc or retext (they load when a check runs).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as quality from '../../src/quality/index.js';

const ROOM = path.resolve(import.meta.dirname, '../../src/quality');
const LAZY = ['franc', 'parse-latin', 'retext-repeated-words', 'vfile'];

/** Every package the module imports statically, following its relative imports (runtime imports only). */
function staticPackages(file: string, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/^(?:import|export)(?!\s+type)\b[^;]*?from\s+'([^']+)'/gms)) {
    const target = match[1]!;
    if (target.startsWith('.')) for (const name of staticPackages(path.resolve(path.dirname(file), target.replace(/\.js$/, '.ts')), seen)) packages.add(name);
    else packages.add(target);
  }
  return packages;
}

describe('src/quality', () => {
  it('should expose exactly its surface', () => {
    expect(Object.keys(quality).sort()).toEqual([
      'CODE_SETTINGS',
      'DEFAULT_ERROR_CODES',
      'QUALITY_CODES',
      'QUALITY_CODE_MEANINGS',
      'QualityOptionError',
      'SEVERITIES',
      'articleQuality',
      'checkArticle',
      'checkQualityOptions',
      'checkedWith',
      'checkedWithSchema',
      'checksOff',
      'containsKeyword',
      'findNearDuplicates',
      'findSignedNearDuplicates',
      'findingSchema',
      'keywordPattern',
      'manifestQuality',
      'nearDuplicateFindings',
      'nearDuplicateSignature',
      'qualityCodesTable',
      'qualityOptionsSchema',
      'qualityOptionsTable',
      'qualitySummary',
      'resolveQualityOptions',
      'withSeverity',
    ]);
  });

  it('should not import franc or retext statically', () => {
    const packages = staticPackages(path.join(ROOM, 'index.ts'));
    expect(LAZY.filter((name) => packages.has(name))).toEqual([]);
    expect([...staticPackages(path.join(ROOM, 'language-check.ts')), ...staticPackages(path.join(ROOM, 'repeated-text-check.ts'))]).toEqual(expect.arrayContaining(LAZY));
  });
});
