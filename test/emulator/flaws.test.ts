// The flaws knob: each kind, written by a real emulator over HTTP, trips its quality check; the same article without the knob does not.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleRequestSchema, type ArticleRequestInput } from '../../src/contract/request-schema.js';
import { runEmulatorCommand } from '../../src/emulator/command.js';
import type { FlawKind, FlawOptions } from '../../src/emulator/flaw-options.js';
import { loadEmulatorConfig, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { resolveLoaderOptions } from '../../src/loader/options.js';
import { acquireEmbeddedEmulator } from '../../src/service/embedded-emulator.js';
import { processArticle } from '../../src/pipeline/index.js';
import { startStandIn } from './openai-stand-in.js';
import { checkArticle, findNearDuplicates, nearDuplicateFindings, resolveQualityOptions, type QualityCode } from '../../src/quality/index.js';

const KEY = 'flaws-test-key-1234';

/** Each kind, the request it is planted in, and the code it must trip. */
const CASES: readonly { kind: FlawKind; code: QualityCode; request: ArticleRequestInput }[] = [
  { kind: 'missing-keyword', code: 'keyword_missing', request: { targetKeyword: 'how to descale an espresso machine', articleLength: 'shorter' } },
  { kind: 'repeated-paragraph', code: 'repeated_text', request: { targetKeyword: 'cold brew concentrate', articleLength: 'shorter', autoPolish: true } },
  { kind: 'wrong-item-count', code: 'item_count_mismatch', request: { targetKeyword: 'best 5 espresso machines', articleType: 'listicle' } },
  { kind: 'wrong-item-count', code: 'item_count_mismatch', request: { targetKeyword: 'best coffee grinders', articleType: 'retail_product_roundup', numRetailProducts: 4 } },
  { kind: 'other-language', code: 'language_mismatch', request: { targetKeyword: 'pour over coffee ratio', articleLength: 'shorter' } },
  { kind: 'other-language', code: 'language_mismatch', request: { targetKeyword: 'kaffee mahlen', language: 'German', articleLength: 'shorter' } },
  { kind: 'writer-leftover', code: 'writer_leftover', request: { targetKeyword: 'french press vs pour over', articleLength: 'short' } },
];

/** The article the `copy` case copies: created just before it. */
const COPIED: ArticleRequestInput = { targetKeyword: 'how to brew pour over coffee', articleLength: 'short' };
const COPY: ArticleRequestInput = { targetKeyword: 'chemex brewing guide', articleLength: 'short' };

async function create(emulator: RunningEmulator, input: ArticleRequestInput): Promise<string> {
  const response = await fetch(`${emulator.url}/api/articles/`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(input) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { articleId: string }).articleId;
}

/** The article's HTML over HTTP once every article settled (polished when there is one, as the loader uses it), without the emulator's own address. */
async function finishedHtml(emulator: RunningEmulator, articleId: string): Promise<string> {
  const record = (await (await fetch(`${emulator.url}/api/articles/${articleId}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as { status: string; output?: { html: string; polishedHtml: string | null } };
  if (record.status !== 'finished' || record.output === undefined) throw new Error(`article ${articleId} is ${record.status}`);
  return (record.output.polishedHtml ?? record.output.html).replaceAll(emulator.url, '');
}

async function written(emulator: RunningEmulator, inputs: readonly ArticleRequestInput[]): Promise<string[]> {
  const ids: string[] = [];
  // One at a time: `copy` copies the article created just before it.
  for (const input of inputs) ids.push(await create(emulator, input));
  await emulator.settle();
  return Promise.all(ids.map((id) => finishedHtml(emulator, id)));
}

async function codesOf(input: ArticleRequestInput, html: string): Promise<QualityCode[]> {
  const request = articleRequestSchema.parse(input);
  const processed = await processArticle(html, { keyword: request.targetKeyword, slug: 'flawed' });
  return (await checkArticle({ slug: 'flawed', html: processed.html, title: processed.title, request })).map((finding) => finding.code);
}

function start(flaws: FlawOptions | undefined): Promise<RunningEmulator> {
  return startEmulator({ timing: 'instant', apiKey: KEY, rateLimit: false, ...(flaws === undefined ? {} : { flaws }) });
}

describe('the emulator writes flawed articles', () => {
  let flawed: RunningEmulator;
  let clean: RunningEmulator;
  let flawedHtml: string[];
  let cleanHtml: string[];
  const inputs = [...CASES.map((c) => c.request), COPIED, COPY];

  beforeAll(async () => {
    const articles: Record<string, FlawKind[]> = Object.fromEntries(CASES.map((c) => [c.request.targetKeyword, [c.kind]]));
    // Keywords are matched as a reader types them: case and spacing do not matter.
    articles['  Chemex   Brewing Guide '] = ['copy'];
    [flawed, clean] = await Promise.all([start({ articles }), start(undefined)]);
    [flawedHtml, cleanHtml] = await Promise.all([written(flawed, inputs), written(clean, inputs)]);
  });
  afterAll(async () => {
    await Promise.all([flawed?.stop(), clean?.stop()]);
  });

  it.each(CASES.map((c, index) => [c.kind, c.code, c.request.articleType ?? 'blog_post', index] as const))('should plant %s so that the checks find %s (%s)', async (_kind, code, _type, index) => {
    const input = CASES[index]!.request;
    expect(await codesOf(input, flawedHtml[index]!)).toContain(code);
    expect(await codesOf(input, cleanHtml[index]!)).not.toContain(code);
  });

  it('should plant copy so that the copy and the article it copies are near-duplicates', () => {
    const copyIndex = inputs.length - 1;
    const pairs = (html: string[]) => findNearDuplicates([{ slug: 'copied', html: html[copyIndex - 1]! }, { slug: 'copy', html: html[copyIndex]! }]);
    const findings = nearDuplicateFindings(pairs(flawedHtml), resolveQualityOptions());
    expect(findings).toEqual([expect.objectContaining({ slug: 'copy', code: 'near_duplicate', message: expect.stringContaining('"copied"') })]);
    expect(pairs(cleanHtml)).toEqual([]);
  });

  it('should keep the keyword in the title of a copy, and leave the article it copies as it was', async () => {
    const copyIndex = inputs.length - 1;
    expect(await codesOf(COPY, flawedHtml[copyIndex]!)).not.toContain('keyword_missing');
    expect(flawedHtml[copyIndex - 1]).toBe(cleanHtml[copyIndex - 1]);
  });
});

describe('flaws with the model writer', () => {
  it('should plant them in what the model wrote, and bill the words delivered', async () => {
    const model = await startStandIn();
    const input: ArticleRequestInput = { targetKeyword: 'best 4 moka pots', articleType: 'listicle' };
    const run = async (flaws: FlawOptions | undefined) => {
      const emulator = await startEmulator({ timing: 'instant', apiKey: KEY, rateLimit: false, writer: { url: model.url, retries: 0 }, ...(flaws === undefined ? {} : { flaws }) });
      try {
        const [html] = await written(emulator, [input]);
        return { html: html!, words: emulator.ledger.totals.billedWords };
      } finally {
        await emulator.stop();
      }
    };
    try {
      const clean = await run(undefined);
      const flawed = await run({ articles: { 'best 4 moka pots': ['writer-leftover', 'wrong-item-count'] } });
      expect(await codesOf(input, clean.html)).not.toContain('writer_leftover');
      expect(await codesOf(input, clean.html)).not.toContain('item_count_mismatch');
      expect(await codesOf(input, flawed.html)).toEqual(expect.arrayContaining(['writer_leftover', 'item_count_mismatch']));
      expect(flawed.words).not.toBe(clean.words);
    } finally {
      await model.stop();
    }
  });
});

describe('flaws in the embedded emulator of an offline build', () => {
  it('should plant the flaws the loader option names', async () => {
    const flaws = resolveLoaderOptions({ emulator: { flaws: { articles: { 'Pour Over Coffee Ratio': ['writer-leftover'] } } } }, {}).service;
    if (flaws.mode !== 'offline') throw new Error('expected offline settings');
    const lease = await acquireEmbeddedEmulator({ timing: 'instant', flaws: flaws.flaws });
    try {
      const post = (targetKeyword: string) =>
        fetch(`${lease.url}/api/articles/`, { method: 'POST', headers: { authorization: `Bearer ${lease.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ targetKeyword, articleLength: 'shorter' }) }).then(async (r) => ((await r.json()) as { articleId: string }).articleId);
      const ids = [await post('pour over coffee ratio'), await post('aeropress recipes')];
      const html = async (id: string): Promise<string> => {
        for (;;) {
          const record = (await (await fetch(`${lease.url}/api/articles/${id}`, { headers: { authorization: `Bearer ${lease.apiKey}` } })).json()) as { status: string; output?: { html: string } };
          if (record.output !== undefined) return record.output.html;
          if (record.status === 'failed') throw new Error('failed');
          // 'instant' articles settle within a few event-loop turns: poll the state, as a client does.
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      const [flawed, clean] = await Promise.all(ids.map(html));
      expect(await codesOf({ targetKeyword: 'pour over coffee ratio', articleLength: 'shorter' }, flawed!)).toContain('writer_leftover');
      expect(await codesOf({ targetKeyword: 'aeropress recipes', articleLength: 'shorter' }, clean!)).not.toContain('writer_leftover');
    } finally {
      await lease.release();
    }
  });
});

describe('the seeded rate', () => {
  const keywords = Array.from({ length: 24 }, (_, i) => `sample keyword number ${i + 1}`);
  const inputs = keywords.map((targetKeyword) => ({ targetKeyword, articleLength: 'shorter' as const }));

  /** The keywords whose article differs from the clean one. */
  async function picked(flaws: FlawOptions, cleanHtml: readonly string[]): Promise<string[]> {
    const emulator = await start(flaws);
    try {
      const html = await written(emulator, inputs);
      return keywords.filter((_, i) => html[i] !== cleanHtml[i]);
    } finally {
      await emulator.stop();
    }
  }

  it('should pick the same articles with the same seed, and a share near the rate', { timeout: 60_000 }, async () => {
    const clean = await start(undefined);
    let cleanHtml: string[];
    try {
      cleanHtml = await written(clean, inputs);
    } finally {
      await clean.stop();
    }
    const options: FlawOptions = { rate: 0.4, seed: 7, kinds: ['writer-leftover', 'repeated-paragraph'] };
    const first = await picked(options, cleanHtml);
    const second = await picked(options, cleanHtml);
    expect(second).toEqual(first);
    expect(first.length).toBeGreaterThan(2);
    expect(first.length).toBeLessThan(keywords.length - 2);
    expect(await picked({ ...options, seed: 8 }, cleanHtml)).not.toEqual(first);
  });
});

describe('a bad flaws setting', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emulator-flaws-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('should be one error naming the file, the key and the value, with a did-you-mean for an unknown kind', async () => {
    const file = join(dir, 'emulator.json');
    await writeFile(file, JSON.stringify({ flaws: { articles: { 'best coffee grinders': ['repeat-paragraph'] } } }));
    await expect(loadEmulatorConfig(file, {})).rejects.toMatchObject({
      code: 'emulator_invalid_config',
      message: `The emulator config file ${file} is invalid: flaws.articles.best coffee grinders[0]: unknown flaw kind "repeat-paragraph"; did you mean "repeated-paragraph"? (the kinds are missing-keyword, repeated-paragraph, wrong-item-count, other-language, writer-leftover, copy).`,
    });
  });

  it('should stop the emulator command with exit code 2 and one error, before it listens', async () => {
    const file = join(dir, 'rate.json');
    await writeFile(file, JSON.stringify({ flaws: { rate: 1.5, kinds: ['copy'] } }));
    const out: string[] = [];
    const err: string[] = [];
    const code = await runEmulatorCommand(['--config', file, '--port', '0'], { out: (line) => out.push(line), err: (line) => err.push(line), env: {} });
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err[0]).toBe(`astro-article-loader emulator: The emulator config file ${file} is invalid: flaws.rate: must be at most 1.`);
  });

  it('should refuse a wrong option in code, naming it', async () => {
    await expect(start({ kinds: ['copi' as FlawKind] })).rejects.toMatchObject({
      code: 'emulator_invalid_options',
      message: expect.stringContaining('Emulator option flaws.kinds[0]: unknown flaw kind "copi"; did you mean "copy"?'),
    });
  });

  it('should be one loader option error for a fixture site\'s emulator.flaws, and reach the embedded emulator when right', () => {
    expect(() => resolveLoaderOptions({ emulator: { flaws: { kinds: ['other-languages'] } } }, {})).toThrow(
      /`emulator\.flaws\.kinds\[0\]` unknown flaw kind "other-languages"; did you mean "other-language"\?/,
    );
    const flaws: FlawOptions = { articles: { 'best coffee grinders': ['wrong-item-count'] } };
    expect(resolveLoaderOptions({ emulator: { flaws } }, {}).service).toEqual({ mode: 'offline', timing: 'fast', flaws });
  });
});
