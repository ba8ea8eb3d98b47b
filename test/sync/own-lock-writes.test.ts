import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isOwnLockWrite } from '../../src/sync/own-lock-writes.js';
import { LockSession } from '../../src/sync/lock-session.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'own-lock-writes-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the lock file texts this process wrote', () => {
  it("should know each text a lock session wrote, and not another process's text of the same file", async () => {
    const file = join(dir, 'articles.lock.json');
    const session = new LockSession(file, {});
    await session.update(() => true);
    const ours = await readFile(file, 'utf8');
    expect(isOwnLockWrite(file, ours)).toBe(true);
    // What another process would leave (a terminal's `approve`, a `git pull`): the same file, another text.
    const theirs = `${JSON.stringify(JSON.parse(ours), null, 4)}\n`;
    expect(theirs).not.toBe(ours);
    await writeFile(file, theirs);
    expect(isOwnLockWrite(file, theirs)).toBe(false);
    expect(isOwnLockWrite(join(dir, 'other.lock.json'), ours)).toBe(false);
  });
});
