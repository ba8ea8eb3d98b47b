// A translation's id is nested (`de/pour-over-kaffee`): its hand edit and its processed record are files in folders, written, listed, verified and pruned.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listEdits, readEdit, writeEdit } from '../../src/sync/edits.js';
import { OutputCache, type LockFile } from '../../src/sync/index.js';

let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aal-nested-ids-'));
});

describe('nested ids', () => {
  it('should write, list and read a hand edit in a folder', async () => {
    const edits = join(dir, 'articles.edits');
    expect((await writeEdit(edits, 'de/pour-over-kaffee', 'art-1', '<p>Kaffee</p>')).file).toBe(join(edits, 'de', 'pour-over-kaffee.html'));
    await writeEdit(edits, 'plain', 'art-2', '<p>x</p>');
    expect(await listEdits(edits)).toEqual(['de/pour-over-kaffee', 'plain']);
    expect((await readEdit(edits, 'de/pour-over-kaffee'))?.baseArticleId).toBe('art-1');
  });

  it('should keep, verify and prune processed records in folders', async () => {
    const cache = new OutputCache(join(dir, 'articles.cache'));
    const output = await cache.put({ html: '<p>a</p>', polishedHtml: null, updatedAt: 1, articleId: 'id-a', targetKeyword: 'a' });
    const lock = { version: 1, articles: { 'de/a': { keyword: 'a', hash: 'sha256:x', status: 'finished', articleId: 'id-a', output } } } as unknown as LockFile;
    await cache.processed.set('de/a', { output, key: 'k', value: { ok: 1 } });
    await cache.processed.set('ar/gone', { output, key: 'k', value: {} });
    await writeFile(join(cache.processed.dir, 'de', '.a.json.gz.1.x.tmp'), '');
    expect(await cache.processed.get('de/a', 'k')).toEqual({ ok: 1 });
    const problems = (await cache.verify(lock)).filter((problem) => problem.file?.includes('processed'));
    expect(problems.map((problem) => [problem.code, problem.file?.slice(cache.processed.dir.length + 1)])).toEqual([
      ['unreferenced_file', 'ar/gone.json.gz'],
      ['temp_file', 'de/.a.json.gz.1.x.tmp'],
    ]);
    expect((await cache.processed.prune(lock)).map((file) => file.slice(cache.processed.dir.length + 1)).sort()).toEqual(['ar/gone.json.gz', 'de/.a.json.gz.1.x.tmp']);
    expect(await cache.processed.get('de/a', 'k')).toEqual({ ok: 1 });
  });
});
