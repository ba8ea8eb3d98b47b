// The bad-manifest corpus: every file in fixtures/manifests/bad is refused with a message naming file, line, entry and field.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadManifest, ManifestError } from '../../src/manifest/index.js';

const corpus = fileURLToPath(new URL('../../fixtures/manifests/bad/', import.meta.url));

interface Expectation {
  /** How many problems the manifest has: no more (no noise), no fewer. */
  problems: number;
  /** The line of the (first) problem, asserted as `file:line`. */
  line: number | null;
  /** How the entry is named: `articles[3] "best shoes"`, `defaults`, `header`, `top level`. */
  entry: string | null;
  /** The field, asserted as `→ field:`. */
  field: string | null;
  /** Fragments the message must contain: what is wrong and what to do. */
  expect: string[];
}

const expectations = JSON.parse(readFileSync(path.join(corpus, 'expected.json'), 'utf8')) as Record<string, Expectation>;
const files = readdirSync(corpus).filter((name) => name !== 'expected.json');

async function refusal(file: string): Promise<ManifestError> {
  try {
    await loadManifest(path.join(corpus, file));
  } catch (error) {
    if (error instanceof ManifestError) return error;
    throw error;
  }
  throw new Error(`${file} was accepted`);
}

describe('bad manifests', () => {
  it('should have an expectation for every file in the corpus, and a file for every expectation', () => {
    expect(Object.keys(expectations).sort()).toEqual([...files].sort());
  });

  it('should hold at least 40 bad manifests in each of the three formats together, with YAML, JSON and CSV all present', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    for (const extension of ['.yaml', '.json', '.csv']) expect(files.some((file) => file.endsWith(extension))).toBe(true);
  });

  it.each(files)('should refuse %s with a message naming where and what to do', async (file) => {
    const expectation = expectations[file] as Expectation;
    const error = await refusal(file);
    expect(error.code).toBe('invalid_manifest');
    expect(error.problems).toHaveLength(expectation.problems);
    expect(error.message).toContain(file);
    if (expectation.line !== null) expect(error.message).toContain(`${file}:${expectation.line}`);
    if (expectation.entry !== null) expect(error.message).toContain(` ${expectation.entry}`);
    if (expectation.field !== null) expect(error.message).toContain(`→ ${expectation.field}: `);
    for (const fragment of expectation.expect) expect(error.message).toContain(fragment);
    for (const problem of error.problems) expect(problem.file).toBe(path.join(corpus, file));
  });
});
