import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withProcessLock } from '../../src/sync/index.js';
import { childScript, spawnTsChild } from './ts-child.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aal-plock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('withProcessLock', () => {
  it('should run critical sections one at a time', async () => {
    const file = join(dir, 'articles.lock.json');
    const trace: string[] = [];
    const section = (name: string) =>
      withProcessLock(file, async () => {
        trace.push(`${name}:in`);
        await new Promise((resolve) => setTimeout(resolve, 30));
        trace.push(`${name}:out`);
      });
    await Promise.all([section('a'), section('b'), section('c')]);
    for (let i = 0; i < trace.length; i += 2) expect(trace[i + 1]).toBe(trace[i]!.replace(':in', ':out'));
  });

  it('should release the lock when the section throws', async () => {
    const file = join(dir, 'articles.lock.json');
    await expect(withProcessLock(file, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(withProcessLock(file, async () => 'again')).resolves.toBe('again');
  });

  it('should report waiting and give up with lock_busy while a live process holds the lock', async () => {
    const file = join(dir, 'articles.lock.json');
    const child = spawnTsChild(childScript('hold-lock.ts'), [file, '10000']);
    try {
      await child.waitFor(/^locked$/);
      let waited = 0;
      const error = await withProcessLock(file, async () => 'never', { timeoutMs: 500, onWait: () => waited++ }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'lock_busy' });
      expect(waited).toBe(1);
    } finally {
      child.process.kill('SIGKILL');
      await child.exited;
    }
  });

  it('should take over a lock left by a process killed with SIGKILL', async () => {
    const file = join(dir, 'articles.lock.json');
    const child = spawnTsChild(childScript('hold-lock.ts'), [file, '2000']);
    await child.waitFor(/^locked$/);
    child.process.kill('SIGKILL');
    await child.exited;
    // The dead holder's lock directory is still there; it goes stale after 2 s without refresh.
    await stat(`${file}.lock`);
    await expect(withProcessLock(file, async () => 'taken over', { staleMs: 2000, timeoutMs: 30_000 })).resolves.toBe('taken over');
  });
});
