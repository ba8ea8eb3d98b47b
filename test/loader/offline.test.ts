// Offline mode: no key and no address, so the build starts the embedded emulator in-process; a build
// killed while waiting resumes the same article from the emulator's state file; a cached build starts nothing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLockFile } from '../../src/sync/index.js';
import { astro, buildPackage, childEnv, createSite, REPO, type Site } from './astro-site.js';

let site: Site;

function stateFile(): string {
  return join(site.root, 'node_modules/.astro/astro-article-loader/emulator-state.json');
}

async function creations(): Promise<{ articleId: string; targetKeyword: string }[]> {
  const state = JSON.parse(await readFile(stateFile(), 'utf8')) as { ledger: { creations: { articleId: string; targetKeyword: string }[] } };
  return state.ledger.creations;
}

async function lockEntry(slug: string): Promise<{ status: string; articleId?: string } | undefined> {
  // Through the lock file's reader: while the build runs, the id may be in the lock file's journal (sync/lock-journal.ts).
  try {
    return (await readLockFile(join(site.root, 'articles.lock.json'))).articles[slug];
  } catch {
    return undefined;
  }
}

/** Starts `astro build` and SIGKILLs it once the article's id is in the lock file and in the emulator's state. */
async function buildKilledWhileWaiting(slug: string): Promise<string> {
  const child = spawn(process.execPath, [join(REPO, 'node_modules/astro/bin/astro.mjs'), 'build', '--root', site.root], {
    cwd: site.root,
    env: childEnv(),
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (let attempt = 0; attempt < 1200; attempt++) {
      const entry = await lockEntry(slug);
      if (entry?.status === 'pending' && entry.articleId !== undefined && existsSync(stateFile())) {
        if ((await creations()).some((c) => c.articleId === entry.articleId)) return entry.articleId;
      }
      if (child.exitCode !== null) throw new Error('the build ended before it could be interrupted');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the article was never recorded as pending');
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

beforeAll(async () => {
  await buildPackage();
  site = await createSite('basic');
  // One article that takes 6 s to write: time enough to interrupt the build while it waits.
  await writeFile(join(site.root, 'articles.yaml'), 'articles:\n  - keyword: espresso machines\n    articleLength: shorter\n');
  const config = join(site.root, 'src/content.config.ts');
  await writeFile(config, (await readFile(config, 'utf8')).replace("manifest: './articles.yaml',", "manifest: './articles.yaml', emulator: { timing: { writingMs: 6000 } },"));
}, 180_000);

afterAll(async () => {
  await site?.cleanup();
});

describe('offline mode', () => {
  it('should resume the article of a killed build from the emulator state instead of creating it again', async () => {
    const articleId = await buildKilledWhileWaiting('espresso-machines');
    const resumed = await astro(site.root, ['build']);
    expect(resumed.code, resumed.output).toBe(0);
    expect(resumed.output).toContain('offline mode: neither an API key nor a service address is set');
    expect(resumed.output).toMatch(/1 article: 0 reused, 1 being written/);
    expect(await creations()).toEqual([expect.objectContaining({ articleId, targetKeyword: 'espresso machines' })]);
    expect((await lockEntry('espresso-machines'))?.status).toBe('finished');
    expect(existsSync(join(site.root, 'dist/articles/espresso-machines/index.html'))).toBe(true);
  }, 240_000);

  it('should start nothing and say nothing when every article is in the cache', async () => {
    const cached = await astro(site.root, ['build']);
    expect(cached.code, cached.output).toBe(0);
    expect(cached.output).not.toContain('[astro-article-loader]');
    expect(await creations()).toHaveLength(1);
  }, 120_000);
});
