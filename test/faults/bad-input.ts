// Fault 5: bad input — manifests, loader options, hostile slugs, a corrupt lock file, a corrupt cache, service answers that break the schema.
//
// Every input goes through the same build step (manifest → sync → read each output → pipeline) on a
// copy of a small finished site. Each gets a clear error (an ArticleLoaderError with a code and a
// message naming the file, field or option) or a documented safe handling, and the lock file is
// compared byte for byte afterwards.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleClient, type ArticleClient } from '../../src/api/client.js';
import { articleRequestSchema } from '../../src/api/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ArticleLoaderError } from '../../src/errors.js';
import { articleLoader, LoaderOptionError } from '../../src/index.js';
import { loadManifest, ManifestError } from '../../src/manifest/index.js';
import { processArticle } from '../../src/pipeline/index.js';
import {
  CorruptLockError,
  InvalidSpecError,
  readLockFile,
  requestHash,
  serializeLockFile,
  syncArticles,
  UnsupportedLockVersionError,
  type SyncEvent,
  type SyncOptions,
  type SyncResult,
  type SyncSpec,
} from '../../src/sync/index.js';
import { WEBHOOK_INTEGRATION, type Campaign } from './campaign.js';
import { startHostileService, statusRecord, type HostileService, type Script } from './hostile-service.js';

const REPO = join(import.meta.dirname, '../..');
const BAD_MANIFESTS = join(REPO, 'fixtures/manifests/bad');
const BASE_KEYWORDS = ['bad input base article one', 'bad input base article two'];
const FAST_POLL = { minMs: 5, maxMs: 40, initialMs: 5 };
const MANIFEST = `defaults:\n  integrationId: ${WEBHOOK_INTEGRATION}\narticles:\n${BASE_KEYWORDS.map((k) => `  - ${k}`).join('\n')}\n`;

/** Every input of the corpus, by category, for the printed figure. */
const corpus = new Map<string, number>();
function counted(category: string, count = 1): void {
  corpus.set(category, (corpus.get(category) ?? 0) + count);
}

function slugOf(keyword: string): string {
  return keyword.replace(/\s+/g, '-');
}

interface BuildOutcome {
  result?: SyncResult;
  error?: unknown;
  events: SyncEvent[];
  processed: number;
}

export function badInputScenario(campaign: Campaign): void {
  describe('fault 5: bad input', () => {
    let emulator: RunningEmulator;
    let client: ArticleClient;
    let hostile: HostileService;
    let root: string;
    let template: string;
    let caseNumber = 0;

    /** A copy of the finished two-article site. */
    async function site(name: string): Promise<{ dir: string; lockFile: string; lockBytes: Buffer }> {
      const dir = join(root, `${String(caseNumber++).padStart(3, '0')}-${name.replace(/[^\w-]+/g, '_').slice(0, 40)}`);
      await cp(template, dir, { recursive: true });
      const lockFile = join(dir, 'articles.lock.json');
      return { dir, lockFile, lockBytes: await readFile(lockFile) };
    }

    /** What a build does: read the manifest, sync, then read and process every output. Never throws. */
    async function build(dir: string, options: Partial<SyncOptions> & { manifest?: string } = {}): Promise<BuildOutcome> {
      const events: SyncEvent[] = [];
      let processed = 0;
      try {
        const { manifest = 'articles.yaml', ...sync } = options;
        const { specs } = await loadManifest(join(dir, manifest));
        const result = await syncArticles({
          specs,
          lockFile: join(dir, 'articles.lock.json'),
          client,
          idempotentCreates: true,
          poll: FAST_POLL,
          onEvent: campaign.eventLogger(events),
          ...sync,
        });
        for (const article of result.articles) {
          const output = await result.readOutput(article.slug);
          if (output === undefined) continue;
          await processArticle(output.polishedHtml ?? output.html, { keyword: article.keyword, slug: article.slug });
          processed += 1;
        }
        return { result, events, processed };
      } catch (error) {
        return { error: campaign.caught(error), events, processed };
      }
    }

    function expectClearError(error: unknown, mentions: string[]): void {
      expect(error).toBeInstanceOf(ArticleLoaderError);
      const { code, message } = error as ArticleLoaderError;
      expect(code).toMatch(/^[a-z_]+$/);
      for (const mention of mentions) expect(message).toContain(mention);
    }

    beforeAll(async () => {
      emulator = await campaign.emulator({ seed: 'fault-campaign-bad-input' });
      client = createArticleClient({ baseUrl: emulator.url, apiKey: campaign.apiKey, idempotentCreates: true, retry: { baseDelayMs: 2, maxDelayMs: 20 } });
      hostile = await startHostileService();
      root = await campaign.tempDir('bad-input');
      template = join(root, 'template');
      await mkdir(template);
      await writeFile(join(template, 'articles.yaml'), MANIFEST);
      const first = await build(template);
      if (first.error !== undefined) throw first.error;
    });

    afterAll(async () => {
      await client?.close();
      await hostile?.stop();
      const total = [...corpus.values()].reduce((a, b) => a + b, 0);
      console.log(`[faults] bad input: ${total} inputs (${[...corpus].map(([category, count]) => `${category} ${count}`).join(', ')})`);
    });

    describe('bad manifests', () => {
      const expected = JSON.parse(readFileSync(join(BAD_MANIFESTS, 'expected.json'), 'utf8')) as Record<string, unknown>;
      const fixtures = Object.keys(expected).sort();

      it(`should reject each of the ${fixtures.length} bad manifests of fixtures/manifests/bad, naming the file, and leave the lock file intact`, async () => {
        const { dir, lockFile, lockBytes } = await site('fixture-manifests');
        for (const name of fixtures) {
          await cp(join(BAD_MANIFESTS, name), join(dir, name));
          const outcome = await build(dir, { manifest: name });
          expect(outcome.error, name).toBeInstanceOf(ManifestError);
          expectClearError(outcome.error, [name]);
          expect((outcome.error as ManifestError).problems.length, name).toBeGreaterThan(0);
        }
        expect(await readFile(lockFile)).toEqual(lockBytes);
        expect(emulator.ledger.creations).toHaveLength(BASE_KEYWORDS.length);
        counted('bad manifests (fixtures)', fixtures.length);
      });

      const more: { name: string; file: string; write: (file: string) => Promise<void>; mentions: string[] }[] = [
        { name: 'a manifest that does not exist', file: 'missing.yaml', write: async () => {}, mentions: ['missing.yaml', 'does not exist'] },
        { name: 'a directory named like a manifest', file: 'folder.yaml', write: (file) => mkdir(file), mentions: ['folder.yaml', 'directory'] },
        { name: 'a manifest over the 5 MiB limit', file: 'huge.yaml', write: (file) => writeFile(file, `articles:\n${'  - "keyword"\n'.repeat(450_000)}`), mentions: ['huge.yaml', 'MiB'] },
        { name: 'JSON nested 100,000 levels deep', file: 'deep.json', write: (file) => writeFile(file, `{"articles":${'['.repeat(100_000)}${']'.repeat(100_000)}}`), mentions: ['deep.json'] },
        { name: 'YAML nested 20,000 levels deep', file: 'deep.yaml', write: (file) => writeFile(file, `articles:\n${'- '.repeat(20_000)}x\n`), mentions: ['deep.yaml'] },
        { name: 'binary bytes', file: 'binary.yaml', write: (file) => writeFile(file, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))), mentions: ['binary.yaml', 'UTF-8'] },
        { name: 'a keyword of 100,000 characters', file: 'long-keyword.yaml', write: (file) => writeFile(file, `articles:\n  - "${'a'.repeat(100_000)}"\n`), mentions: ['long-keyword.yaml'] },
        { name: 'a manifest that is only a BOM', file: 'bom-only.yaml', write: (file) => writeFile(file, '\ufeff'), mentions: ['bom-only.yaml'] },
      ];
      for (const input of more) {
        it(`should reject ${input.name} with a clear error and leave the lock file intact`, async () => {
          const { dir, lockFile, lockBytes } = await site(input.file);
          await input.write(join(dir, input.file));
          const outcome = await build(dir, { manifest: input.file });
          expect(outcome.error).toBeInstanceOf(ManifestError);
          expectClearError(outcome.error, input.mentions);
          expect(await readFile(lockFile)).toEqual(lockBytes);
          counted('bad manifests (added)');
        });
      }

      it.runIf(process.platform !== 'win32')('should reject a manifest that is a character device (/dev/zero) instead of reading it forever', async () => {
        const { dir, lockFile, lockBytes } = await site('device');
        await symlink('/dev/zero', join(dir, 'zero.yaml'));
        const outcome = await build(dir, { manifest: 'zero.yaml' });
        expect(outcome.error).toBeInstanceOf(ManifestError);
        expectClearError(outcome.error, ['zero.yaml', 'not a regular file']);
        expect(await readFile(lockFile)).toEqual(lockBytes);
        counted('bad manifests (added)');
      });
    });

    describe('bad loader options', () => {
      const cases: { name: string; options: unknown; mentions: string[] }[] = [
        { name: 'a negative budget', options: { budget: -1 }, mentions: ['budget'] },
        { name: 'a fractional budget', options: { budget: 2.5 }, mentions: ['budget'] },
        { name: 'a budget given as text', options: { budget: '25' }, mentions: ['budget'] },
        { name: 'a NaN budget', options: { budget: Number.NaN }, mentions: ['budget'] },
        { name: 'frozen given as text', options: { frozen: 'yes' }, mentions: ['frozen'] },
        { name: 'an unknown onFailure', options: { onFailure: 'ignore' }, mentions: ['onFailure'] },
        { name: 'a zero timeout', options: { timeoutMs: 0 }, mentions: ['timeoutMs'] },
        { name: 'zero concurrency', options: { concurrency: 0 }, mentions: ['concurrency'] },
        { name: 'negative maxLinks', options: { maxLinks: -1 }, mentions: ['maxLinks'] },
        { name: 'an empty manifest path', options: { manifest: '' }, mentions: ['manifest'] },
        { name: 'both a manifest and inline articles', options: { manifest: './a.yaml', articles: ['x'] }, mentions: ['manifest', 'articles'] },
        { name: 'defaults without inline articles', options: { defaults: { articleLength: 'short' } }, mentions: ['defaults'] },
        { name: 'a misspelt option', options: { budgte: 5 }, mentions: ['budgte', 'budget'] },
        { name: 'an ftp service address', options: { baseUrl: 'ftp://api.example.com', apiKey: 'not-a-secret-key' }, mentions: ['baseUrl'] },
        { name: 'a url that is not a function', options: { url: '/articles/' }, mentions: ['url'] },
        { name: 'a heading id prefix with a space', options: { headingIdPrefix: 'a b' }, mentions: ['headingIdPrefix'] },
        { name: 'a relative image public path', options: { downloadImages: { publicPath: 'images' } }, mentions: ['downloadImages.publicPath'] },
        { name: 'internal links without a domain id', options: { internalLinks: { domainId: '', siteUrl: 'https://example.com' } }, mentions: ['internalLinks.domainId'] },
        { name: 'an unknown emulator timing', options: { emulator: { timing: 'slow' } }, mentions: ['emulator.timing'] },
        { name: 'options that are not an object', options: 'articles.yaml', mentions: ['options object'] },
        { name: 'a service address without a key', options: { baseUrl: 'https://api.example.com' }, mentions: ['API key'] },
      ];
      for (const input of cases) {
        it(`should refuse ${input.name} with a LoaderOptionError naming it`, () => {
          let error: unknown;
          try {
            articleLoader(input.options as never);
          } catch (caught) {
            error = campaign.caught(caught);
          }
          expect(error).toBeInstanceOf(LoaderOptionError);
          expectClearError(error, input.mentions);
          counted('bad loader options');
        });
      }

      it('should refuse an API key without a service address without repeating the key', () => {
        let error: unknown;
        try {
          articleLoader({ apiKey: campaign.apiKey });
        } catch (caught) {
          error = campaign.caught(caught);
        }
        expect(error).toBeInstanceOf(LoaderOptionError);
        expectClearError(error, ['baseUrl']);
        expect((error as Error).message).not.toContain(campaign.apiKey);
        counted('bad loader options');
      });
    });

    describe('hostile slugs', () => {
      const rejected = [
        '../../../etc/passwd',
        '..\\..\\windows\\system32',
        '/etc/cron.d/job',
        'a/b',
        '.git',
        '__proto__',
        'CON',
        'nul',
        `${'x'.repeat(300)}`,
        'emoji-😀',
        '\u202egnp.exe',
        'tab\tslug',
        '%2e%2e%2f',
      ];
      it(`should reject ${rejected.length} hostile slugs in a manifest, each named in the error, and write nothing`, async () => {
        const { dir, lockFile, lockBytes } = await site('hostile-slugs');
        for (const slug of rejected) {
          await writeFile(join(dir, 'slugs.yaml'), `articles:\n  - keyword: hostile slug article\n    slug: ${JSON.stringify(slug)}\n`);
          const outcome = await build(dir, { manifest: 'slugs.yaml' });
          expect(outcome.error, slug).toBeInstanceOf(ManifestError);
          expectClearError(outcome.error, ['slug']);
        }
        expect(await readFile(lockFile)).toEqual(lockBytes);
        expect((await readdir(dir)).sort()).toEqual(['articles.cache', 'articles.lock.json', 'articles.yaml', 'slugs.yaml']);
        counted('hostile slugs (manifest)', rejected.length);
      });

      // A translation's id has folders (`de/x`), so "/" is refused only at an end, doubled or around ".".
      const unsafeSpecs = ['../outside', '/a', 'a/', 'a//b', 'a/./b', '.', 'a\\b', '', '..', 'nul\u0000byte', 'x'.repeat(201)];
      it(`should refuse ${unsafeSpecs.length} unsafe slugs that bypass the manifest, before touching the lock file`, async () => {
        const { dir, lockFile, lockBytes } = await site('unsafe-spec-slugs');
        for (const slug of unsafeSpecs) {
          const spec: SyncSpec = { slug, keyword: 'unsafe slug article', request: articleRequestSchema.parse({ targetKeyword: 'unsafe slug article' }) };
          const outcome = await syncArticles({ specs: [spec], lockFile, client }).then(
            () => undefined,
            (error: unknown) => campaign.caught(error),
          );
          expect(outcome, JSON.stringify(slug)).toBeInstanceOf(InvalidSpecError);
        }
        expect(await readFile(lockFile)).toEqual(lockBytes);
        expect((await readdir(dir)).sort()).toEqual(['articles.cache', 'articles.lock.json', 'articles.yaml']);
        counted('hostile slugs (sync specs)', unsafeSpecs.length);
      });

      it('should create Object.prototype-named articles (constructor, toString, hasOwnProperty, valueOf) once and reuse them', async () => {
        const { dir } = await site('prototype-names');
        const keywords = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'];
        await writeFile(join(dir, 'articles.yaml'), `articles:\n${keywords.map((k) => `  - keyword: ${k}\n    slug: ${k}`).join('\n')}\n`);
        const before = emulator.ledger.creations.length;
        const first = await build(dir);
        const second = await build(dir);
        expect(first.error).toBeUndefined();
        expect(first.result!.articles.map((a) => a.outcome)).toEqual(keywords.map(() => 'finished'));
        expect(second.result!.articles.map((a) => a.outcome)).toEqual(keywords.map(() => 'reused'));
        expect(second.processed).toBe(keywords.length);
        expect(emulator.ledger.creations.length - before).toBe(keywords.length);
        // Outputs are stored by content hash, never by slug.
        for (const file of await readdir(join(dir, 'articles.cache', 'outputs'))) expect(file).toMatch(/^[0-9a-f]{64}\.json$/);
        counted('hostile slugs (prototype names)', keywords.length);
      });
    });

    describe('a corrupt lock file', () => {
      const validEntry = (): Record<string, unknown> => ({
        keyword: BASE_KEYWORDS[0],
        status: 'finished',
        hash: requestHash(articleRequestSchema.parse({ targetKeyword: BASE_KEYWORDS[0] })),
        articleId: randomUUID(),
        attempt: 1,
        createdAt: '2024-06-01T00:00:00.000Z',
        updatedAt: '2024-06-01T00:00:00.000Z',
        finishedAt: '2024-06-01T00:00:00.000Z',
        output: `sha256:${'a'.repeat(64)}`,
      });
      const slug = slugOf(BASE_KEYWORDS[0]!);
      const cases: { name: string; content: (valid: string) => string | Buffer; error: typeof CorruptLockError | typeof UnsupportedLockVersionError }[] = [
        { name: 'an empty file', content: () => '', error: CorruptLockError },
        { name: 'cut in half', content: (valid) => valid.slice(0, Math.floor(valid.length / 2)), error: CorruptLockError },
        { name: 'merge-conflict markers', content: (valid) => `<<<<<<< HEAD\n${valid}=======\n${valid}>>>>>>> feature\n`, error: CorruptLockError },
        { name: 'JSON null', content: () => 'null', error: CorruptLockError },
        { name: 'a JSON array', content: () => '[]', error: CorruptLockError },
        { name: 'no version', content: () => JSON.stringify({ articles: {} }), error: CorruptLockError },
        { name: 'a future version', content: () => JSON.stringify({ version: 2, articles: {} }), error: UnsupportedLockVersionError },
        { name: 'the version as text', content: () => JSON.stringify({ version: '1', articles: {} }), error: UnsupportedLockVersionError },
        { name: 'articles as a list', content: () => JSON.stringify({ version: 1, articles: [] }), error: CorruptLockError },
        { name: 'an unknown status', content: () => JSON.stringify({ version: 1, articles: { [slug]: { ...validEntry(), status: 'done' } } }), error: CorruptLockError },
        { name: 'an entry without a hash', content: () => JSON.stringify({ version: 1, articles: { [slug]: { ...validEntry(), hash: undefined } } }), error: CorruptLockError },
        { name: 'a finished entry without output', content: () => JSON.stringify({ version: 1, articles: { [slug]: { ...validEntry(), output: undefined } } }), error: CorruptLockError },
        { name: 'a date that is not a date', content: () => JSON.stringify({ version: 1, articles: { [slug]: { ...validEntry(), createdAt: 'yesterday' } } }), error: CorruptLockError },
        { name: 'an unknown top-level key', content: (valid) => valid.replace('{', '{"extra":1,'), error: CorruptLockError },
        { name: 'a __proto__ key at the top', content: () => '{"version":1,"articles":{},"__proto__":{"polluted":true}}', error: CorruptLockError },
        { name: 'UTF-16 with a BOM', content: (valid) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(valid, 'utf16le')]), error: CorruptLockError },
        { name: 'binary bytes', content: () => Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 31) % 256)), error: CorruptLockError },
      ];
      for (const input of cases) {
        it(`should refuse a lock file with ${input.name}, name the file and leave it untouched, creating nothing`, async () => {
          const { dir, lockFile } = await site(`lock-${input.name}`);
          await writeFile(lockFile, input.content((await readFile(lockFile, 'utf8'))));
          const lockBytes = await readFile(lockFile);
          const before = emulator.ledger.creations.length;
          // A new keyword too: a build that misread the lock file would create (and pay for) it.
          await writeFile(join(dir, 'articles.yaml'), `${MANIFEST}  - bad input article that must not be created\n`);
          const outcome = await build(dir);
          expect(outcome.error).toBeInstanceOf(input.error);
          expectClearError(outcome.error, [lockFile, 'left untouched']);
          expect(await readFile(lockFile)).toEqual(lockBytes);
          expect(emulator.ledger.creations.length).toBe(before);
          counted('corrupt lock files');
        });
      }

      it('should ignore a hand-added "__proto__" entry without polluting any prototype', async () => {
        const { dir, lockFile } = await site('lock-proto-entry');
        const lock = JSON.parse(await readFile(lockFile, 'utf8')) as { articles: Record<string, unknown> };
        const text = JSON.stringify(lock, null, 2).replace('"articles": {', `"articles": {\n"__proto__": ${JSON.stringify({ ...validEntry(), keyword: 'status' })},`);
        await writeFile(lockFile, text);
        const outcome = await build(dir);
        expect(outcome.error).toBeUndefined();
        expect(outcome.result!.articles.map((a) => a.outcome)).toEqual(['reused', 'reused']);
        expect(({} as Record<string, unknown>).status).toBeUndefined();
        expect(await readFile(lockFile, 'utf8')).toBe(text);
        counted('corrupt lock files');
      });

      // A read error other than a missing file (here EISDIR) is a SyncError('lock_read_failed') naming the file.
      it('should refuse a lock file path that is a directory with a clear error', async () => {
        const { dir, lockFile } = await site('lock-directory');
        await rm(lockFile);
        await mkdir(lockFile);
        const outcome = await build(dir);
        expectClearError(outcome.error, [lockFile]);
      });
    });

    describe('a corrupt cache', () => {
      const outputFile = async (dir: string): Promise<string> => {
        const lock = await readLockFile(join(dir, 'articles.lock.json'));
        const hex = lock.articles[slugOf(BASE_KEYWORDS[0]!)]!.output!.slice('sha256:'.length);
        return join(dir, 'articles.cache', 'outputs', `${hex}.json`);
      };
      const cases: { name: string; damage: (file: string) => Promise<void> }[] = [
        { name: 'one byte changed', damage: async (file) => writeFile(file, (await readFile(file, 'utf8')).replace('<h1', '<h2')) },
        { name: 'cut in half', damage: async (file) => writeFile(file, (await readFile(file)).subarray(0, 100)) },
        { name: 'emptied', damage: (file) => writeFile(file, '') },
        { name: 'valid JSON of the wrong shape', damage: (file) => writeFile(file, '{"html":1}') },
        { name: 'deleted', damage: (file) => rm(file) },
      ];
      for (const input of cases) {
        it(`should fetch an output that was ${input.name} again with one GET, serve it and keep the lock file`, async () => {
          const { dir, lockFile, lockBytes } = await site(`cache-${input.name}`);
          await input.damage(await outputFile(dir));
          const gets = emulator.requests.filter((r) => r.route === 'getArticle').length;
          const outcome = await build(dir);
          expect(outcome.error).toBeUndefined();
          expect(outcome.processed).toBe(BASE_KEYWORDS.length);
          expect(emulator.requests.filter((r) => r.route === 'getArticle').length - gets).toBe(1);
          expect(await readFile(lockFile)).toEqual(lockBytes);
          counted('corrupt cache files');
        });
      }

      it('should ignore a leftover temp file of an interrupted write', async () => {
        const { dir, lockFile, lockBytes } = await site('cache-temp-file');
        await writeFile(join(dir, 'articles.cache', 'outputs', '.deadbeef.json.1234.abcdef.tmp'), '{"html":"<p>half');
        const outcome = await build(dir);
        expect(outcome.result!.articles.map((a) => a.outcome)).toEqual(['reused', 'reused']);
        expect(await readFile(lockFile)).toEqual(lockBytes);
        counted('corrupt cache files');
      });

      it('should fail clearly, naming the cache and the way out, when a damaged output cannot be fetched', async () => {
        const { dir, lockFile, lockBytes } = await site('cache-damaged-offline');
        const file = await outputFile(dir);
        await writeFile(file, '{}');
        const outcome = await build(dir, { client: undefined });
        expectClearError(outcome.error, ['articles.cache', 'Restore']);
        expect(await readFile(lockFile)).toEqual(lockBytes);
        counted('corrupt cache files');
      });
    });

    describe('service answers that break the schema', () => {
      const keyword = 'bad input pending article';
      const articleId = '6f1c2a4e-1111-4222-8333-444455556666';

      /** A site whose lock file has one pending article (id known) that the next build polls on the hostile service. */
      async function pendingSite(name: string, timeoutMs = 2_000): Promise<{ dir: string; lockFile: string; lockBytes: Buffer; client: ArticleClient }> {
        const { dir, lockFile } = await site(name);
        const lock = await readLockFile(lockFile);
        const request = articleRequestSchema.parse({ targetKeyword: keyword, integrationId: WEBHOOK_INTEGRATION });
        lock.articles[slugOf(keyword)] = { keyword, status: 'pending', hash: requestHash(request), articleId, attempt: 1, createdAt: '2024-06-01T00:00:00.000Z', updatedAt: '2024-06-01T00:00:00.000Z' };
        await writeFile(lockFile, serializeLockFile(lock));
        await writeFile(join(dir, 'articles.yaml'), `${MANIFEST}  - ${keyword}\n`);
        const scripted = createArticleClient({ baseUrl: hostile.url, apiKey: campaign.apiKey, timeoutMs, retry: { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 2 } });
        return { dir, lockFile, lockBytes: await readFile(lockFile), client: scripted };
      }

      const invalid: { name: string; script: Script; timeoutMs?: number }[] = [
        { name: 'a record missing statusDetail, progress and updatedAt', script: () => ({ body: statusRecord(articleId, keyword, { statusDetail: undefined, progress: undefined, updatedAt: undefined }) }) },
        { name: 'a status value outside the spec ("done")', script: () => ({ body: statusRecord(articleId, keyword, { status: 'done' }) }) },
        { name: 'output on an unfinished article', script: () => ({ body: statusRecord(articleId, keyword, { output: { html: '<h1>Early</h1>', polishedHtml: null } }) }) },
        { name: 'a finished article without output', script: () => ({ body: statusRecord(articleId, keyword, { status: 'finished', progress: 1 }) }) },
        { name: 'progress above 1', script: () => ({ body: statusRecord(articleId, keyword, { progress: 7 }) }) },
        { name: 'updatedAt as text', script: () => ({ body: statusRecord(articleId, keyword, { updatedAt: '2024-06-01' }) }) },
        { name: 'polishedHtml as a number', script: () => ({ body: statusRecord(articleId, keyword, { status: 'finished', progress: 1, output: { html: '<h1>T</h1>', polishedHtml: 3 } }) }) },
        { name: 'a JSON array', script: () => ({ body: '[]' }) },
        { name: 'an HTML page with status 200', script: () => ({ contentType: 'text/html', body: '<html><body>Maintenance</body></html>' }) },
        { name: 'an empty 200 answer', script: () => ({ body: '' }) },
        { name: 'an answer slower than the timeout', script: () => ({ delayMs: 1_000, body: statusRecord(articleId, keyword) }), timeoutMs: 150 },
      ];
      for (const input of invalid) {
        it(`should refuse ${input.name} with a clear per-article error and leave the lock file intact`, async () => {
          const { dir, lockFile, lockBytes, client: scripted } = await pendingSite(`service-${input.name}`, input.timeoutMs);
          hostile.script(input.script);
          const outcome = await build(dir, { client: scripted, onFailure: 'skip' });
          await scripted.close();
          expect(outcome.error).toBeUndefined();
          const article = outcome.result!.articles.find((a) => a.slug === slugOf(keyword))!;
          // A service too slow to answer in time is, after a few such answers, one the run stops asking: the article stays pending for the next run.
          expect(article.outcome).toBe(article.error?.code === 'service_unreachable' ? 'pending' : 'failed');
          expect(['invalid_response', 'timeout', 'service_unreachable']).toContain(article.error?.code);
          expect(article.error?.message.length).toBeGreaterThan(20);
          expect(outcome.processed).toBe(BASE_KEYWORDS.length);
          expect(await readFile(lockFile)).toEqual(lockBytes);
          counted('service answers');
        });
      }

      it('should accept a finished article with an HTML body of 5 MB, cache it and run it through the pipeline', async () => {
        const { dir, lockFile, client: scripted } = await pendingSite('service-5mb');
        const html = `<h1>Huge article</h1>${'<p>Many words in a paragraph that repeats.</p>'.repeat((5 * 1024 * 1024) / 46)}`;
        hostile.script(() => ({ body: statusRecord(articleId, keyword, { status: 'finished', progress: 1, output: { html, polishedHtml: null } }) }));
        const outcome = await build(dir, { client: scripted, onFailure: 'skip' });
        await scripted.close();
        expect(outcome.error).toBeUndefined();
        expect(outcome.result!.articles.find((a) => a.slug === slugOf(keyword))!.outcome).toBe('finished');
        expect(outcome.processed).toBe(BASE_KEYWORDS.length + 1);
        const lock = await readLockFile(lockFile);
        expect(lock.articles[slugOf(keyword)]).toMatchObject({ status: 'finished', articleId });
        counted('service answers');
      });

      it('should record a failed article whose error is 1 MB long with a short message', async () => {
        const { dir, lockFile, client: scripted } = await pendingSite('service-huge-error');
        hostile.script(() => ({ body: statusRecord(articleId, keyword, { status: 'failed', error: { code: 'generation_failed', message: 'x'.repeat(1024 * 1024) } }) }));
        const outcome = await build(dir, { client: scripted, onFailure: 'skip' });
        await scripted.close();
        const entry = (await readLockFile(lockFile)).articles[slugOf(keyword)]!;
        expect(entry.status).toBe('failed');
        expect(entry.error!.message.length).toBeLessThan(1_000);
        expect(outcome.processed).toBe(BASE_KEYWORDS.length);
        counted('service answers');
      });

      // A service that echoes the Authorization header in a failure: the client redacts every string of the record's
      // `error` and its statusDetail. Runs in the campaign's dir, through its event log, so the secret search covers it too.
      it('should not store an API key echoed in a failed article\'s error', async () => {
        const { dir, lockFile, client: scripted } = await pendingSite('service-echoed-key');
        hostile.script((req) =>
          ({ body: statusRecord(articleId, keyword, { status: 'failed', statusDetail: `Refused ${req.headers.authorization}`, error: { code: 'bad_request', message: `rejected: ${req.headers.authorization}`, echoed: [req.headers.authorization] } }) }),
        );
        const outcome = await build(dir, { client: scripted, onFailure: 'skip' });
        await scripted.close();
        expect(outcome.result!.articles.find((a) => a.slug === slugOf(keyword))!.outcome).toBe('failed');
        expect(JSON.stringify(outcome.result!.failures)).toContain('[redacted]');
        expect(JSON.stringify(outcome.result!.failures)).not.toContain(campaign.apiKey);
        expect(JSON.stringify(outcome.events)).not.toContain(campaign.apiKey);
        expect(await readFile(lockFile, 'utf8')).not.toContain(campaign.apiKey);
        counted('service answers');
      });

      // A status record for another article (its config.targetKeyword is not ours: a mixed-up id on the service
      // side) is an invalid_response poll failure: never cached, never recorded.
      it('should not serve another article\'s output when the service answers for a different keyword', async () => {
        const { dir, lockFile, lockBytes, client: scripted } = await pendingSite('service-other-article');
        hostile.script(() => ({ body: statusRecord(articleId, 'a completely different keyword', { status: 'finished', progress: 1, output: { html: '<h1>Someone else</h1><p>x</p>', polishedHtml: null } }) }));
        const outcome = await build(dir, { client: scripted, onFailure: 'skip' });
        await scripted.close();
        expect(outcome.result!.articles.find((a) => a.slug === slugOf(keyword))!.outcome).toBe('failed');
        expect(await readFile(lockFile)).toEqual(lockBytes);
      });

      const creates: { name: string; script: Script }[] = [
        { name: 'no articleId', script: () => ({ body: '{}' }) },
        { name: 'an articleId that is a path', script: () => ({ body: '{"articleId":"../../admin"}' }) },
        { name: 'an articleId of 100 KB', script: () => ({ body: JSON.stringify({ articleId: 'a'.repeat(100_000) }) }) },
        { name: 'a 500 HTML page', script: () => ({ status: 500, contentType: 'text/html', body: '<h1>Internal Server Error</h1>' }) },
      ];
      for (const input of creates) {
        it(`should record a create answered with ${input.name} as unknown (maybe billed), keeping every other entry`, async () => {
          const { dir, lockFile } = await site(`create-${input.name}`);
          const before = await readLockFile(lockFile);
          await writeFile(join(dir, 'articles.yaml'), `${MANIFEST}  - bad input new article\n`);
          const scripted = createArticleClient({ baseUrl: hostile.url, apiKey: campaign.apiKey, retry: { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 2 } });
          hostile.script(input.script);
          const outcome = await build(dir, { client: scripted, idempotentCreates: false, onFailure: 'skip' });
          await scripted.close();
          const article = outcome.result!.articles.find((a) => a.slug === 'bad-input-new-article')!;
          expect(article.outcome).toBe('unknown');
          expect(article.error?.message).toContain('outcome is unknown');
          expect(hostile.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
          const after = await readLockFile(lockFile);
          for (const [slug, entry] of Object.entries(before.articles)) expect(after.articles[slug], slug).toEqual(entry);
          expect(after.articles['bad-input-new-article']).toMatchObject({ status: 'unknown' });
          counted('service answers');
        });
      }
    });

    it('should have run a corpus of at least 40 inputs', () => {
      expect([...corpus.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(40);
    });
  });
}
