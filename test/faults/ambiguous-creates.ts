// Fault 6: creates billed but answered as failures (500, reset, broken JSON); the user follows the printed instructions to a complete site.
import { spawn } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { readLockFile } from '../../src/sync/index.js';
import { astro, buildPackage, createSite, REPO, type Site } from '../loader/astro-site.js';
import { runCliInProcess } from '../cli/in-process-cli.js';

import { WEBHOOK_INTEGRATION, type Campaign } from './campaign.js';

const ARTICLES = 100;
const AMBIGUOUS_SHARE = 0.1;

function slugOf(keyword: string): string {
  return keyword.replace(/\s+/g, '-');
}

/** The CLI on the compiled package, as a user runs it, against the emulator (the real service's defaults: no idempotent creates). */
function cli(campaign: Campaign, cwd: string, url: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ARTICLES_API_KEY: campaign.apiKey, ARTICLES_API_URL: url, NO_COLOR: '1' };
  delete env.CI;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO, 'dist/cli/index.js'), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve(logged(campaign, args, { code, output })));
  });
}

/** `cli`, through the bin's `main` in this process (test/cli/in-process-cli.ts), with the same environment and log. */
async function cliInProcess(campaign: Campaign, cwd: string, url: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const result = await runCliInProcess(args, { cwd, env: { ARTICLES_API_KEY: campaign.apiKey, ARTICLES_API_URL: url, NO_COLOR: '1' } });
  return logged(campaign, args, { code: result.code, output: result.stdout + result.stderr });
}

/** A run's output lines, into the campaign log. */
function logged(campaign: Campaign, args: string[], result: { code: number | null; output: string }): { code: number | null; output: string } {
  for (const line of result.output.split('\n')) if (line.trim() !== '') campaign.log(`cli ${args[0]}: ${line}`);
  return result;
}

export function ambiguousCreatesScenario(campaign: Campaign): void {
  describe('fault 6: ambiguous creates, closed by the user', () => {
    let emulator: RunningEmulator;
    let site: Site;
    let firstSync: { code: number | null; output: string };
    const adopted: string[] = [];
    let pages = 0;

    beforeAll(async () => {
      await buildPackage();
      emulator = await campaign.emulator({ seed: 'fault-campaign-ambiguous', faults: { ambiguousCreates: AMBIGUOUS_SHARE } });
      site = await createSite('basic');
      campaign.dirs.push(site.root);
      const keywords = Array.from({ length: ARTICLES }, (_, i) => `ambiguous create article ${i}`);
      await writeFile(join(site.root, 'articles.yaml'), `defaults:\n  integrationId: ${WEBHOOK_INTEGRATION}\narticles:\n${keywords.map((k) => `  - ${k}`).join('\n')}\n`);
      firstSync = await cli(campaign, site.root, emulator.url, ['sync', '--budget', String(ARTICLES), '--poll-interval', '50ms']);
      // What the user does next: for each printed `adopt <slug> <articleId>`, find the id on the queue page (here: the ledger).
      for (const [, slug] of firstSync.output.matchAll(/npx astro-article-loader adopt (\S+) <articleId>/g)) {
        if (slug!.startsWith('<') || adopted.includes(slug!)) continue;
        const keyword = keywords.find((k) => slugOf(k) === slug)!;
        const [creation] = emulator.ledger.creationsForKeyword(keyword);
        // The first through the bin as a user runs it, the others through its `main` in this process (the same command, without a child's start-up).
        const args = ['adopt', slug!, creation!.articleId];
        const result = adopted.length === 0 ? await cli(campaign, site.root, emulator.url, args) : await cliInProcess(campaign, site.root, emulator.url, args);
        expect(result.code, result.output).toBe(0);
        adopted.push(slug!);
      }
      const build = await astro(site.root, ['build'], { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: campaign.apiKey });
      for (const line of build.output.split('\n')) campaign.log(`astro build: ${line}`);
      expect(build.code, build.output.slice(-3000)).toBe(0);
      pages = (await readdir(join(site.root, 'dist', 'articles'), { withFileTypes: true })).filter((entry) => entry.isDirectory()).length;
      const lock = await readLockFile(join(site.root, 'articles.lock.json'));
      const onSite = new Set(Object.values(lock.articles).flatMap((entry) => (entry.status === 'finished' && entry.articleId !== undefined ? [entry.articleId] : [])));
      const missing = emulator.ledger.creations.filter((creation) => !onSite.has(creation.articleId)).length;
      console.log(
        `[faults] ambiguous creates: ${pages} pages, ${emulator.ledger.creations.length} creations, ${missing} charged but missing ` +
          `(${adopted.length} ambiguous creates at a ${AMBIGUOUS_SHARE * 100}% share, each adopted with the command the first sync printed)`,
      );
    }, 300_000);

    it('should list every unknown create with the adopt command and never claim a later build resumes it', () => {
      expect(firstSync.code).toBe(1);
      expect(adopted.length).toBeGreaterThan(0);
      expect(firstSync.output).toContain('--retry-unknown=');
      expect(firstSync.output).not.toMatch(/resumes? (it|them)/i);
    });

    it('should end with a page for every keyword, each article created once, and nothing charged that is not on the site', async () => {
      expect(pages).toBe(ARTICLES);
      expect(emulator.ledger.creations).toHaveLength(ARTICLES);
      expect(emulator.ledger.duplicates()).toEqual([]);
      const lock = await readLockFile(join(site.root, 'articles.lock.json'));
      const onSite = new Set(Object.values(lock.articles).map((entry) => entry.articleId));
      expect(emulator.ledger.creations.filter((creation) => !onSite.has(creation.articleId))).toEqual([]);
    });
  });
}
