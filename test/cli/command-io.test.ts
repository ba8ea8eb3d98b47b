// The command line against the `io` it is given: a command reads the clock override from its own environment, not from this process's.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { OutputStream } from '../../src/cli/output.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'aal-command-io-'));
  await writeFile(path.join(dir, 'articles.yaml'), 'articles:\n  - keyword: winter coffee gifts\n    publishDate: 2026-12-10\n');
});

afterAll(() => rm(dir, { recursive: true, force: true }));

/** `plan --json` run against `env` and `dir`, this process's environment left as it is. */
async function plan(env: Record<string, string>): Promise<{ code: number; document: { calendar?: { rows: { slug: string; live: boolean }[] } } }> {
  let stdout = '';
  const sink = (write: (text: string) => void): OutputStream => ({ write });
  const code = await main(['plan', '--json'], { stdout: sink((text) => (stdout += text)), stderr: sink(() => undefined), env: { PATH: process.env.PATH, ...env }, cwd: dir });
  return { code, document: JSON.parse(stdout) as Awaited<ReturnType<typeof plan>>['document'] };
}

describe('a command and its io', () => {
  it("should take ARTICLE_LOADER_NOW from the command's environment, so the calendar follows it", async () => {
    expect(process.env.ARTICLE_LOADER_NOW).toBeUndefined();
    const before = await plan({ ARTICLE_LOADER_NOW: '2026-12-01T00:00:00Z' });
    const after = await plan({ ARTICLE_LOADER_NOW: '2027-01-01T00:00:00Z' });
    expect(before.document.calendar?.rows).toEqual([expect.objectContaining({ slug: 'winter-coffee-gifts', live: false })]);
    expect(after.document.calendar?.rows).toEqual([expect.objectContaining({ slug: 'winter-coffee-gifts', live: true })]);
    expect([before.code, after.code]).toEqual([3, 3]);
  });

  it("should refuse a clock override that is not a date from the command's environment, with exit 2", async () => {
    const refused = await plan({ ARTICLE_LOADER_NOW: 'tomorrow' });
    expect(refused.code).toBe(2);
    expect(JSON.stringify(refused.document)).toContain('ARTICLE_LOADER_NOW');
  });
});
