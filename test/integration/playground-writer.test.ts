// The playground, cut to two articles, built offline by a real `astro build` whose embedded emulator writes with a model:
// the loopback stand-in of an OpenAI-compatible server. The pages' text is the model's; a second build asks it nothing.
// Also the emulator command with --writer-url, as the published bin runs it.
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { astro, buildPackage, childEnv, installModules, REPO, type RunResult } from '../loader/astro-site.js';
import { startStandIn, type StandIn } from '../emulator/openai-stand-in.js';
import { ChildOutput } from '../child-output.js';

const MANIFEST = `defaults:
  language: English
  data: { category: brewing }
articles:
  - keyword: how to brew pour over coffee
    articleLength: shorter
    includeFaq: true
  - keyword: coffee brewing methods
    articleType: listicle
    enableAutomaticLength: false
    numberOfItems: 3
`;

let root: string;
let server: StandIn;
let build: RunResult;
let callsAfterFirstBuild: number;
let rebuild: RunResult;
const page = (slug: string) => readFile(join(root, 'dist/articles', slug, 'index.html'), 'utf8');

beforeAll(async () => {
  await buildPackage();
  server = await startStandIn();
  root = await mkdtemp(join(tmpdir(), 'aal-playground-writer-'));
  await cp(join(REPO, 'playground'), root, {
    recursive: true,
    filter: (source) => !/[/\\](dist|node_modules|\.astro|articles\.cache|articles\.edits|articles\.lock\.json|_articles)$/.test(source),
  });
  await writeFile(join(root, 'articles.yaml'), MANIFEST);
  const config = join(root, 'src/content.config.ts');
  const source = await readFile(config, 'utf8');
  expect(source).toContain("manifest: './articles.yaml',");
  await writeFile(config, source.replace("manifest: './articles.yaml',", `manifest: './articles.yaml', emulator: { timing: 'instant', writer: { url: '${server.url}', model: 'stand-in-1b' } },`));
  await installModules(root);
  build = await astro(root, ['build'], { ARTICLES_WRITER_URL: undefined, ARTICLES_WRITER_KEY: undefined });
  callsAfterFirstBuild = server.calls.length;
  rebuild = await astro(root, ['build'], { ARTICLES_WRITER_URL: undefined, ARTICLES_WRITER_KEY: undefined });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe('the playground written by a model', () => {
  it('should build pages whose text the model wrote, FAQ and list items included', async () => {
    expect(build.code, build.output).toBe(0);
    expect(server.calls.every((call) => call.body.model === 'stand-in-1b')).toBe(true);
    expect(server.calls.filter((call) => call.kind === 'outline')).toHaveLength(2);
    const guide = await page('how-to-brew-pour-over-coffee');
    expect(guide).toContain('The Stand-in Guide to how to brew pour over coffee');
    expect(guide).toContain('Stand-in text for Stand-in heading 1 on how to brew pour over coffee.');
    expect(guide).toContain('What is stand-in how to brew pour over coffee?');
    expect(guide).toMatch(/"@type":"FAQPage"/);
    const list = await page('coffee-brewing-methods');
    expect(list).toContain('3. Stand-in heading 3 on coffee brewing methods');
  });

  it('should record what was written in the lock file and ask the model nothing on the next build', async () => {
    const lock = await readFile(join(root, 'articles.lock.json'), 'utf8');
    expect(lock).toContain('how-to-brew-pour-over-coffee');
    expect(rebuild.code, rebuild.output).toBe(0);
    expect(server.calls.length).toBe(callsAfterFirstBuild);
  });
});

describe('astro-article-loader emulator --writer-url', () => {
  it('should say which writer it uses (never the key) and write with it', async () => {
    const key = 'sk-cli-writer-key-0000';
    const child = spawn(process.execPath, [join(REPO, 'dist/cli/index.js'), 'emulator', '--port', '0', '--speed', 'instant', '--writer-url', server.url, '--writer-model', 'cli-model'], {
      env: childEnv({ ARTICLES_WRITER_KEY: key, EMULATOR_API_KEYS: undefined }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = ChildOutput.of(child, 'the emulator');
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      // The banner's last line: the lines read below came before it.
      await output.waitForLine(/^Press Ctrl-C to stop\.$/);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.complete)![1]!;
      expect(output.complete).toContain(`Writer: ${server.url}, model "cli-model", 1 at once, key from ARTICLES_WRITER_KEY (not shown).`);
      const headers = { authorization: 'Bearer emulator-dev-key', 'content-type': 'application/json' };
      const body = JSON.stringify({ targetKeyword: 'moka pot', articleLength: 'shorter' });
      const { articleId } = (await (await fetch(`${url}/api/articles/`, { method: 'POST', headers, body })).json()) as { articleId: string };
      await expect.poll(async () => ((await (await fetch(`${url}/api/articles/${articleId}`, { headers })).json()) as { status: string }).status, { timeout: 20_000 }).toBe('finished');
      expect(server.calls.at(-1)).toMatchObject({ authorization: `Bearer ${key}`, body: { model: 'cli-model' } });
    } finally {
      child.kill('SIGINT');
    }
    expect(await closed).toBe(0);
    expect(output.text).not.toContain(key);
  });
});
