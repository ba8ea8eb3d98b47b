// The README's option table is the options' own declaration, printed: it cannot drift from the code.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loaderOptionsSchema, loaderOptionsTable } from '../../src/loader/option-declarations.js';

const README = join(import.meta.dirname, '../../README.md');

describe('the loader options table', () => {
  it('should be in the README exactly as the declarations print it', async () => {
    const readme = await readFile(README, 'utf8');
    const table = /<!-- loader-options:start[^>]*-->\n([\s\S]*?)\n<!-- loader-options:end -->/.exec(readme)?.[1];
    expect(table).toBe(loaderOptionsTable());
  });

  it('should document every option the schema accepts, once', () => {
    const documented = loaderOptionsTable()
      .split('\n')
      .slice(2)
      .map((row) => /^\| `(\w+)` \|/.exec(row)?.[1]);
    expect(documented.sort()).toEqual(Object.keys(loaderOptionsSchema.shape).sort());
  });
});
