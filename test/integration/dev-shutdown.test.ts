// The loaders' background work ends with what it belongs to, while articles are still being written: a collection
// taken out of the content config loses its queue and its polls; a stopped dev server sends no poll after the stop,
// leaves nothing that keeps the process alive, and closes its port. The service is an emulator the test runs, so its
// request log shows every poll; the dev server runs through Astro's API in a child process, so stopping the server
// (astro:server:done) and the process ending are two separate moments.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { readLockFile } from '../../src/sync/index.js';
import { accepts, buildPackage, ChildOutput, childEnv, createSite, freePort, type Site } from './astro-project.js';

const CHILD = fileURLToPath(new URL('./dev-server-child.mjs', import.meta.url));

let emulator: RunningEmulator;
let site: Site;
let child: ChildProcessWithoutNullStreams;
let url: string;
let extraArticleId: string;
let pollsAfterRemoval: number;
const output = new ChildOutput();
let exit: string | undefined;
let markExited = (): void => {};
const exited = new Promise<void>((resolve) => (markExited = resolve));

const gone = (): string | undefined => exit;

/** Wakes the one `until` waiting: a request to the emulator has ended, or the child has exited. */
let wake = (): void => {};

/** Resolves once `condition` (about the emulator's requests) holds, looked at again as each request ends: no poll, no bound but the test's. */
async function until(condition: () => boolean, what: string): Promise<void> {
  while (!condition()) {
    if (exit !== undefined) throw new Error(`${exit} before ${what}:\n${output.text}`);
    await new Promise<void>((resolve) => (wake = resolve));
  }
}

/** The collections the child's loaders keep a queue for. */
async function queues(): Promise<string[]> {
  const from = output.text.length;
  child.stdin.write('queues\n');
  return JSON.parse((await output.waitFor(/dev-child: queues (\[.*\])/, { from, failed: gone }))[1]!) as string[];
}

function pollsOf(articleId: string): number {
  return emulator.requests.filter((r) => r.route === 'getArticle' && r.path.endsWith(articleId)).length;
}

describe('the loaders in astro dev while articles are still being written', () => {
  beforeAll(async () => {
    await buildPackage();
    // Ten minutes per article: it is still being written whenever the test looks.
    emulator = await startEmulator({ timing: { queueDelayMs: 0, writingMs: 10 * 60_000 }, onRequest: () => wake() });
    site = await createSite('toolbar');
    // A second collection, with an inline manifest and a lock file of its own.
    const config = join(site.root, 'src/content.config.ts');
    await writeFile(
      config,
      (await readFile(config, 'utf8')).replace(
        '};\n',
        "  extra: defineCollection({ loader: articleLoader({ articles: ['moka pot'], lockFile: './extra', apiKey: ARTICLES_API_KEY, baseUrl: ARTICLES_API_URL }) }),\n};\n",
      ),
    );
    await mkdir(join(site.root, 'extra'));
    const port = await freePort();
    child = spawn(process.execPath, [CHILD, site.root, String(port)], {
      cwd: site.root,
      env: childEnv({ ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    output.follow(child);
    child.once('exit', (code, signal) => {
      exit = `the dev server process exited (${code ?? signal})`;
      output.append('');
      markExited();
      wake();
    });
    url = (await output.waitFor(/dev-child: ready at (http:\/\/\S+)/, { failed: gone }))[1]!;
  });

  afterAll(async () => {
    // The child is undefined when the set-up failed before it was started.
    if (exit === undefined && child !== undefined) {
      child.kill('SIGKILL');
      await exited;
    }
    await emulator?.stop();
    await site?.cleanup();
  });

  it('should end the queue and the polls of a collection taken out of the content config', async () => {
    await output.waitFor(/waiting for 1 article in the background/, { failed: gone });
    const [creation] = emulator.ledger.creationsForKeyword('moka pot');
    expect(creation).toBeDefined();
    extraArticleId = creation!.articleId;
    await until(() => pollsOf(extraArticleId) > 0, 'a poll of the extra collection\'s article');
    expect(await queues()).toEqual(['articles', 'extra']);

    const config = join(site.root, 'src/content.config.ts');
    await writeFile(config, (await readFile(config, 'utf8')).replace(/^ {2}extra: .*\n/m, ''));
    let seen: string[] = [];
    // Astro reloads the content config and disposes of the collection: up to 100 s on a loaded machine (a full suite on 2 cores took over 30).
    for (let attempt = 0; attempt < 1000 && !(seen.length === 1 && seen[0] === 'articles'); attempt++) {
      seen = await queues();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen).toEqual(['articles']);
    // Its background wait ended with it: no poll of its article from here on (checked once the process has ended).
    pollsAfterRemoval = pollsOf(extraArticleId);
  }, 120_000);

  it('should send no request after the stop, leave nothing running and close its port', async () => {
    const from = output.text.length;
    await appendFile(join(site.root, 'articles.yaml'), '  - aeropress recipe\n');
    await output.waitFor(/waiting for 1 article in the background/, { from, failed: gone });
    // The background wait is polling: at least one status request for the new article has reached the service.
    const [creation] = emulator.ledger.creationsForKeyword('aeropress recipe');
    expect(creation).toBeDefined();
    await until(() => emulator.requests.some((r) => r.route === 'getArticle' && r.path.endsWith(creation!.articleId)), 'a poll of the new article');
    expect(await accepts(url)).toBe(true);

    child.stdin.write('stop\n');
    await output.waitFor(/dev-child: stopped/, { failed: gone });
    const requestsAtStop = emulator.requests.length;
    expect(exit).toBeUndefined();
    expect(await accepts(url)).toBe(false);

    // With stdin ended, only a timer or socket of the loader's could keep the process alive: it ends at once.
    child.stdin.end();
    const ended = await Promise.race([exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 30_000).unref())]);
    expect(ended, `the process is still running after the dev server stopped:\n${output.text}`).toBe(true);
    expect(child.exitCode).toBe(0);
    expect(emulator.requests.length).toBe(requestsAtStop);
    expect(pollsOf(extraArticleId)).toBe(pollsAfterRemoval);
    // The article is still the service's to finish: its id stays in the lock file for the next run.
    // Read as every reader does, with the lock file's journal (sync/lock-journal.ts) should the stop have left one.
    const lock = await readLockFile(join(site.root, 'articles.lock.json'));
    expect(lock.articles['aeropress-recipe']).toMatchObject({ status: 'pending', articleId: creation!.articleId });
  }, 120_000);
});
