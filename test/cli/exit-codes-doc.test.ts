// The exit codes are declared once: the commands' codes, `--help` and the CLI guide's table all come from src/cli/exit-codes.ts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_HELP, EXIT_CODE_LIST, EXIT_CODES, exitCodeTable } from '../../src/cli/exit-codes.js';

const GUIDE = join(import.meta.dirname, '../../docs/cli.md');

describe('the exit codes', () => {
  it('should be in the CLI guide exactly as the declaration prints them', async () => {
    const guide = await readFile(GUIDE, 'utf8');
    const table = /<!-- exit-codes:start[^>]*-->\n([\s\S]*?)\n<!-- exit-codes:end -->/.exec(guide)?.[1];
    expect(table).toBe(exitCodeTable());
  });

  it('should give each code one name and one meaning', () => {
    const codes = EXIT_CODE_LIST.map(({ code }) => code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(Object.values(EXIT_CODES)).toEqual(codes);
    expect(EXIT_CODES).toMatchObject({ ok: 0, failure: 1, usage: 2, wouldCreate: 3, verifyFailed: 4, interrupted: 130, terminated: 143 });
  });

  it('should print every code and every word of its meaning in --help, within 92 columns', () => {
    const lines = EXIT_CODE_HELP.split('\n');
    expect(lines[0]).toBe('Exit codes:');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(92);
    const printed = EXIT_CODE_HELP.replace(/\s+/g, ' ');
    for (const { code, meaning } of EXIT_CODE_LIST) expect(printed).toContain(` ${code} ${meaning}`.replace(/ {2,}/g, ' '));
  });
});
