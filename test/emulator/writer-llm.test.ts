// The model writer against a loopback stand-in of the Chat Completions protocol: prompts, output, progress, billing, failures, the key.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFragment } from 'parse5';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type ArticleStatusRecord, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import type { ModelWriterOptions } from '../../src/emulator/model-writer/index.js';
import { processArticle } from '../../src/pipeline/index.js';
import { countHtmlWords } from '../../src/contract/word-count.js';
import { startStandIn, type RecordedCall, type StandIn, type StandInFault, type StandInOptions } from './openai-stand-in.js';

const KEY = 'writer-test-account-key';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function standIn(options: StandInOptions = {}): Promise<StandIn> {
  const started = await startStandIn(options);
  cleanups.push(() => started.stop());
  return started;
}

async function emulatorWith(writer: ModelWriterOptions, options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = await startEmulator({ timing: 'instant', ...(options.accounts === undefined ? { apiKey: KEY } : {}), rateLimit: false, ...options, writer: { retries: 0, ...writer } });
  cleanups.push(() => emulator.stop());
  return emulator;
}

async function create(emulator: RunningEmulator, body: object): Promise<Response> {
  return fetch(`${emulator.url}/api/articles/`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function created(emulator: RunningEmulator, body: object): Promise<string> {
  const response = await create(emulator, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { articleId: string }).articleId;
}

async function settled(emulator: RunningEmulator, articleId: string): Promise<ArticleStatusRecord> {
  await emulator.settle();
  return emulator.article(articleId)!;
}

/**
 * An emulator with a state file, stopped while the model held call `held` (0-based) of the
 * article `body`: the state file keeps what the writer had of it.
 */
async function stoppedWhileWriting(body: object, held: number): Promise<{ server: StandIn; stateFile: string; id: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'aal-writer-resume-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const stateFile = join(dir, 'state.json');
  let reached = (): void => {};
  const atHeldCall = new Promise<void>((resolve) => (reached = resolve));
  const server = await standIn({ before: (call) => (call.index === held ? (reached(), new Promise<void>(() => {})) : undefined) });
  const first = await startEmulator({ timing: 'instant', apiKey: KEY, rateLimit: false, stateFile, writer: { url: server.url, retries: 0 } });
  const id = await created(first, body);
  await atHeldCall;
  await first.stop();
  return { server, stateFile, id };
}

const BLOG = {
  targetKeyword: 'pour over coffee',
  articleLength: 'custom',
  numberOfSections: 3,
  includeFaq: true,
  includeKeyTakeaways: true,
  pointOfView: 'second_person',
  language: 'German',
  toneOfVoiceProfile: 'playful and warm',
  readabilityMode: '8th_grade',
  extraTitlePrompt: 'Put the year in the title.',
  extraSectionPrompt: 'Mention the gooseneck kettle.',
  extraIntroductionPrompt: 'Open with a question.',
  country: 'Austria',
};

describe('the model writer', () => {
  it('should write the outline first, then each part in order, with every parameter in its prompts', async () => {
    const server = await standIn();
    const emulator = await emulatorWith({ url: server.url, model: 'stand-in-7b' });
    const id = await created(emulator, BLOG);
    expect((await settled(emulator, id)).status).toBe('finished');
    expect(server.calls.map((c) => c.kind)).toEqual(['outline', 'introduction', 'takeaways', 'body', 'body', 'body', 'faq', 'conclusion']);
    for (const call of server.calls) {
      expect(call.body.model).toBe('stand-in-7b');
      expect(call.system).toContain('Write in German.');
      expect(call.system).toContain('second person');
      expect(call.system).toContain('Tone of voice: playful and warm.');
      expect(call.system).toContain('8th grade');
      expect(call.system).toContain('Readers are in Austria.');
      expect(call.system).toContain('"pour over coffee"');
    }
    const [outline, intro] = server.calls;
    expect(outline!.user).toContain('exactly 3 numbered section headings');
    expect(outline!.user).toContain('Put the year in the title.');
    expect(intro!.user).toContain('Open with a question.');
    const bodies = server.calls.filter((c) => c.kind === 'body');
    expect(bodies.map((c) => /\((\d) of 3\)/.exec(c.user)?.[1])).toEqual(['1', '2', '3']);
    for (const body of bodies) expect(body.user).toContain('Mention the gooseneck kettle.');
    expect(server.calls.filter((c) => c.kind !== 'body').every((c) => !c.user.includes('gooseneck'))).toBe(true);
  });

  it('should follow a given outline and title: no sections planned, the title kept', async () => {
    const server = await standIn();
    const emulator = await emulatorWith({ url: server.url });
    const outline = ['Grind size', { title: 'Water', subsections: ['Temperature', 'Ratio'] }];
    const id = await created(emulator, { targetKeyword: 'pour over coffee', title: 'My Own Title', outline, disableIntroduction: true, disableConclusion: true });
    const record = await settled(emulator, id);
    expect(server.calls.map((c) => c.kind)).toEqual(['title', 'body', 'body']);
    expect(server.calls[2]!.user).toContain('Cover these sub-topics, each under its own "### " heading: Temperature; Ratio.');
    const html = record.output!.html;
    expect(html).toMatch(/^<h1>My Own Title<\/h1>\n<h2>Grind size<\/h2>/);
    expect(html).toContain('<h2>Water</h2>');
    expect(html).not.toContain('Conclusion');
  });

  it('should turn the model\'s Markdown into well-formed HTML that the pipeline reads, FAQ included', async () => {
    const server = await standIn();
    const emulator = await emulatorWith({ url: server.url });
    const id = await created(emulator, { ...BLOG, language: 'English' });
    const { html } = (await settled(emulator, id)).output!;
    const errors: string[] = [];
    parseFragment(html, { onParseError: (error) => errors.push(error.code) });
    expect(errors).toEqual([]);
    expect(html).toMatch(/^<h1>The Stand-in Guide to pour over coffee<\/h1>\n<p>Stand-in introduction\./);
    expect(html).toContain('<h2>Key Takeaways</h2>\n<ul>');
    expect(html).toContain('<h2>Stand-in heading 2 on pour over coffee</h2>\n<p>Stand-in text for Stand-in heading 2 on pour over coffee.');
    // The heading the model repeated is dropped; Markdown leaves no trace.
    expect(html.match(/Stand-in heading 2 on pour over coffee<\/h2>/g)).toHaveLength(1);
    expect(html).not.toMatch(/(^|\n)#|\*\*/);
    const processed = await processArticle(html, { keyword: 'pour over coffee' });
    expect(processed.title).toBe('The Stand-in Guide to pour over coffee');
    expect(processed.faq).toEqual([
      { question: 'What is stand-in pour over coffee?', answer: expect.any(String) },
      { question: 'How long does stand-in pour over coffee take?', answer: expect.any(String) },
    ]);
  });

  it('should keep tables and strikethrough, and leave an address the model wrote as text, not a link', async () => {
    const body = 'Compare them.\n\n| Grinder | Burrs |\n| --- | --- |\n| A | ~~flat~~ conical |\n\nSee www.example.com or https://example.org/page and mail me@example.com.';
    const server = await standIn({ answer: (call) => (call.kind === 'body' ? body : undefined) });
    const emulator = await emulatorWith({ url: server.url });
    const { html } = (await settled(emulator, await created(emulator, { targetKeyword: 'burr grinders', articleLength: 'short' }))).output!;
    expect(html).toContain('<table>\n<thead>\n<tr>\n<th>Grinder</th>');
    expect(html).toContain('<td><del>flat</del> conical</td>');
    expect(html).toContain('<p>See www.example.com or https://example.org/page and mail me@example.com.</p>');
    expect(html).not.toContain('<a ');
  });

  it('should keep its connection to the model across an article\'s streamed calls instead of opening one per call', async () => {
    const server = await standIn();
    const emulator = await emulatorWith({ url: server.url });
    await settled(emulator, await created(emulator, { ...BLOG, language: 'English' }));
    expect(server.calls.length).toBeGreaterThan(5);
    expect(server.calls.every((call) => call.body.stream === true)).toBe(true);
    // Each call ends its stream with [DONE] a moment before the response ends; cancelling the body at
    // [DONE] would close the connection, and the next call would open another.
    // (undici may open a second one while it hands the first back to its pool: 2 at most, not one per call.)
    expect(server.connections).toBeLessThanOrEqual(2);
  });

  it('should finish an article whose server keeps a response open after [DONE], letting that response go', async () => {
    const server = await standIn({ fault: (call) => (call.index === 1 ? 'linger' : undefined) });
    const emulator = await emulatorWith({ url: server.url });
    const record = await settled(emulator, await created(emulator, { targetKeyword: 'moka pot', articleLength: 'short' }));
    expect(record.status).toBe('finished');
    expect(record.output!.html).toContain('Stand-in text for');
    expect(server.calls.length).toBeGreaterThan(2);
  });

  it('should write list items, supplemental sections and product reviews as their types ask', async () => {
    const server = await standIn();
    const emulator = await emulatorWith({ url: server.url });
    const list = await created(emulator, { articleType: 'listicle', targetKeyword: 'coffee shops', enableAutomaticLength: false, numberOfItems: 4 });
    const roundup = await created(emulator, { articleType: 'retail_product_roundup', targetKeyword: 'coffee grinders', numRetailProducts: 2, affiliateId: 'aff-20', enableFirstHandExperience: false });
    await emulator.settle();
    expect(server.calls.find((c) => c.system.includes('"coffee shops"') && c.kind === 'outline')!.user).toContain('exactly 4 numbered item names');
    const listHtml = emulator.article(list)!.output!.html;
    expect(listHtml).toContain('<h2>4. Stand-in heading 4 on coffee shops</h2>');
    expect(listHtml).toContain('<h2>Stand-in extra tips</h2>');
    const roundupCalls = server.calls.filter((c) => c.system.includes('"coffee grinders"'));
    expect(roundupCalls[0]!.system).toContain('without claiming to have used it');
    expect(roundupCalls.filter((c) => c.kind === 'body')).toHaveLength(2);
    expect(emulator.article(roundup)!.output!.html).toContain('href="https://www.amazon.com/s?k=Stand-in+heading+1+on+coffee+grinders&amp;tag=aff-20"');
  });

  it('should read a streamed answer and a JSON answer to the same article', async () => {
    const streaming = await standIn();
    const json = await standIn({ streaming: false });
    const viaStream = await emulatorWith({ url: streaming.url });
    const viaJson = await emulatorWith({ url: json.url });
    const notAsked = await emulatorWith({ url: json.url, stream: false });
    const body = { targetKeyword: 'cold brew', articleLength: 'short' };
    const [a, b, c] = await Promise.all([created(viaStream, body), created(viaJson, body), created(notAsked, body)]);
    const [one, two, three] = await Promise.all([settled(viaStream, a), settled(viaJson, b), settled(notAsked, c)]);
    expect(one.output!.html).toBe(two.output!.html);
    expect(three.output!.html).toBe(one.output!.html);
    expect(streaming.calls.every((call) => call.body.stream === true)).toBe(true);
    expect(json.calls.filter((call) => call.body.stream === false).length).toBe(json.calls.length / 2);
  });

  it('should show each step in statusDetail and progress as the model works on it', async () => {
    const seen: { call: RecordedCall; record: ArticleStatusRecord }[] = [];
    let emulator: RunningEmulator | undefined;
    let articleId = '';
    const server = await standIn({ before: (call) => void seen.push({ call, record: structuredClone(emulator!.article(articleId)!) }) });
    emulator = await emulatorWith({ url: server.url });
    articleId = await created(emulator, { targetKeyword: 'latte art', articleLength: 'custom', numberOfSections: 3 });
    const final = await settled(emulator, articleId);
    expect(seen.map((s) => s.record.statusDetail)).toEqual([
      'Creating the outline',
      'Writing the introduction',
      'Writing section 1 of 3: Stand-in heading 1 on latte art',
      'Writing section 2 of 3: Stand-in heading 2 on latte art',
      'Writing section 3 of 3: Stand-in heading 3 on latte art',
      'Writing the conclusion',
    ]);
    expect(seen.every((s) => s.record.status === 'processing' && s.record.output === undefined)).toBe(true);
    const progress = seen.map((s) => s.record.progress);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
    expect(Math.max(...progress)).toBeLessThan(1);
    expect(final).toMatchObject({ status: 'finished', progress: 1, statusDetail: 'Article finished', error: null });
  });

  it('should bill the words written, reserving the planned words meanwhile', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const longConclusion = `Stand-in conclusion. ${'More words here. '.repeat(100)}`;
    let conclusionAsked: () => void = () => {};
    const asked = new Promise<void>((resolve) => (conclusionAsked = resolve));
    const holdConclusion = (call: RecordedCall) => (call.kind === 'conclusion' ? (conclusionAsked(), held) : undefined);
    const server = await standIn({ before: holdConclusion, answer: (call) => (call.kind === 'conclusion' ? longConclusion : undefined) });
    const emulator = await emulatorWith({ url: server.url }, { accounts: [{ name: 'main', apiKey: KEY, plan: 'basic', words: 5000 }] });
    const id = await created(emulator, { targetKeyword: 'espresso', articleLength: 'short' });
    // The moment the model is asked for the conclusion, not a poll with a one-second bound (a loaded machine took longer).
    await asked;
    const reserved = { ...emulator.ledger.creations[0]! };
    expect(reserved).toMatchObject({ outcome: 'pending', images: 0, imageWords: 0 });
    expect(reserved.words).toBeGreaterThan(500);
    expect(emulator.balances()[0]!.words).toBe(5000 - reserved.words);
    release();
    const record = await settled(emulator, id);
    const written = countHtmlWords(record.output!.html);
    expect(emulator.ledger.creations[0]).toMatchObject({ outcome: 'finished', words: written });
    expect(written).toBeGreaterThan(reserved.words + 200);
    expect(emulator.ledger.totals.billedWords).toBe(written);
    expect(emulator.balances()[0]!.words).toBe(5000 - written);
  });

  it('should refuse with 402 an article whose planned words the balance cannot cover, asking the model nothing', async () => {
    const server = await standIn();
    const emulator = await emulatorWith({ url: server.url }, { accounts: [{ name: 'main', apiKey: KEY, plan: 'basic', words: 300 }] });
    const response = await create(emulator, { targetKeyword: 'espresso', articleLength: 'long' });
    expect(response.status).toBe(402);
    expect(server.calls).toEqual([]);
  });

  it('should resume an article after a restart, asking the model only for the parts it had not answered', async () => {
    const body = { ...BLOG, language: 'English' };
    const { server, stateFile, id } = await stoppedWhileWriting(body, 3);
    const saved = JSON.parse(await readFile(stateFile, 'utf8')) as { articles: { id: string; written?: { answers: string[] } }[] };
    expect(saved.articles.find((a) => a.id === id)!.written!.answers).toHaveLength(2);
    const askedBefore = server.calls.length;

    const second = await emulatorWith({ url: server.url }, { stateFile });
    const record = await settled(second, id);
    expect(record.status).toBe('finished');
    const resumed = server.calls.slice(askedBefore);
    // The outline and the two parts answered are not asked again; the part cut off by the stop is.
    expect(resumed.map((call) => call.kind)).not.toContain('outline');
    expect(resumed[0]!.user).toBe(server.calls[3]!.user);
    const freshServer = await standIn();
    const fresh = await emulatorWith({ url: freshServer.url });
    const uninterrupted = await settled(fresh, await created(fresh, body));
    expect(record.output!.html).toBe(uninterrupted.output!.html);
    expect(askedBefore - 1 + resumed.length).toBe(freshServer.calls.length);
    await second.stop();
    const after = JSON.parse(await readFile(stateFile, 'utf8')) as { articles: { id: string; status: string; written?: unknown }[] };
    expect(after.articles.find((a) => a.id === id)).toMatchObject({ status: 'finished' });
    expect(after.articles.find((a) => a.id === id)!.written).toBeUndefined();
  });

  it('should write an article anew when the answers its state file kept are not of the right shape', async () => {
    const { server, stateFile, id } = await stoppedWhileWriting({ targetKeyword: 'moka pot', articleLength: 'short' }, 2);
    const state = JSON.parse(await readFile(stateFile, 'utf8')) as { articles: { id: string; written?: { answers: unknown[] } }[] };
    state.articles.find((a) => a.id === id)!.written!.answers = [42, null];
    await writeFile(stateFile, JSON.stringify(state));
    const askedBefore = server.calls.length;
    const second = await emulatorWith({ url: server.url }, { stateFile });
    expect((await settled(second, id)).status).toBe('finished');
    expect(server.calls[askedBefore]!.kind).toBe('outline');
  });

  it('should write no more articles at once than --writer-concurrency, the others waiting queued', async () => {
    let firstCall: () => void = () => {};
    const writing = new Promise<void>((resolve) => (firstCall = resolve));
    const server = await standIn({
      before: () => {
        firstCall();
        return new Promise((resolve) => setTimeout(resolve, 5));
      },
    });
    const emulator = await emulatorWith({ url: server.url, concurrency: 1 });
    const ids = await Promise.all([1, 2, 3].map((n) => created(emulator, { targetKeyword: `brew ${n}`, articleLength: 'shorter' })));
    // The first call reaches the model: one article is being written (not a poll with a one-second bound).
    await writing;
    expect(ids.map((id) => emulator.article(id)!.status).filter((s) => s === 'queued')).toHaveLength(2);
    await emulator.settle();
    expect(server.maxInFlight).toBe(1);
    expect(ids.map((id) => emulator.article(id)!.status)).toEqual(['finished', 'finished', 'finished']);
  });
});

/** An article whose `kind` call meets `fault` (every time): its record once settled, and the emulator. */
async function failing(fault: StandInFault, writer: Partial<ModelWriterOptions> = {}, kind: RecordedCall['kind'] = 'body') {
  const server = await standIn({ fault: (call) => (call.kind === kind ? fault : undefined) });
  const emulator = await emulatorWith({ url: server.url, ...writer }, { accounts: [{ name: 'main', apiKey: KEY, plan: 'basic', words: 10_000 }] });
  const id = await created(emulator, { targetKeyword: 'moka pot', articleLength: 'custom', numberOfSections: 2 });
  return { record: await settled(emulator, id), emulator, server };
}

describe('the model writer when the model fails', () => {
  const cases: [StandInFault, string, RegExp][] = [
    ['server_error', 'writer_server_error', /answered HTTP 500: "stand-in: internal error" while writing section 1 of 2/],
    ['overloaded', 'writer_server_error', /answered HTTP 503/],
    ['refuse', 'writer_unreachable', /could not be reached or closed the connection/],
    ['empty', 'writer_empty_answer', /sent an empty answer while writing section 1 of 2/],
    ['length', 'writer_answer_cut_off', /finish_reason "length"/],
    ['cut_stream', 'writer_answer_cut_off', /ended its streamed answer without finishing it/],
    ['context', 'writer_context_length', /too long for the model's context \(HTTP 400: "the request exceeds the available context size, try increasing it"\)/],
    ['stream_error', 'writer_server_error', /reported an error in its stream.*the model crashed mid-answer/],
    ['unauthorized', 'writer_rejected', /refused the request with HTTP 401.*ARTICLES_WRITER_KEY/],
    ['not_found', 'writer_rejected', /HTTP 404.*\/v1/],
    ['redirect', 'writer_rejected', /answered HTTP 307, a redirect to \/api\/v1\/chat\/completions, while writing section 1 of 2: set --writer-url/],
  ];

  for (const [fault, code, message] of cases) {
    it(`should end the article failed with ${code} after "${fault}", billing nothing`, async () => {
      const { record, emulator } = await failing(fault);
      expect(record).toMatchObject({ status: 'failed', statusDetail: 'Failed while writing section 1 of 2: Stand-in heading 1 on moka pot', error: { code } });
      expect(record.error!.message).toMatch(message);
      expect(record.output).toBeUndefined();
      expect(emulator.ledger.creations[0]!.outcome).toBe('failed');
      expect(emulator.ledger.totals).toMatchObject({ failed: 1, billedWords: 0 });
      expect(emulator.balances()[0]!.words).toBe(10_000);
    });
  }

  it('should end the article failed with writer_timeout when the model sends nothing for timeoutMs', async () => {
    const { record } = await failing('hang', { timeoutMs: 300 }, 'outline');
    expect(record).toMatchObject({ status: 'failed', statusDetail: 'Failed while creating the outline', error: { code: 'writer_timeout' } });
    expect(record.error!.message).toMatch(/sent nothing for 0 s while creating the outline/);
  });

  it('should end the article failed with writer_unreachable when nothing listens at the writer URL', async () => {
    const server = await standIn();
    await server.stop();
    const emulator = await emulatorWith({ url: server.url });
    const record = await settled(emulator, await created(emulator, { targetKeyword: 'chemex' }));
    expect(record).toMatchObject({ status: 'failed', error: { code: 'writer_unreachable' } });
    expect(record.error!.message).toMatch(/refused the connection while creating the outline\. Start the server/);
    expect(emulator.ledger.totals.billedWords).toBe(0);
  });

  it('should retry a 5xx with backoff and finish when the server recovers', async () => {
    let failures = 0;
    const server = await standIn({ fault: (call) => (call.kind === 'outline' && failures++ < 2 ? 'overloaded' : undefined) });
    const emulator = await emulatorWith({ url: server.url, retries: 2 });
    const record = await settled(emulator, await created(emulator, { targetKeyword: 'siphon coffee', articleLength: 'shorter' }));
    expect(record.status).toBe('finished');
    expect(server.calls.filter((c) => c.kind === 'outline')).toHaveLength(3);
  });

  it('should say the retries were spent when a 5xx outlasts them', async () => {
    const { record, server } = await failing('server_error', { retries: 1 });
    expect(record.error!.message).toContain('(also after 1 retry)');
    expect(server.calls.filter((c) => c.kind === 'body')).toHaveLength(2);
  });

  it('should fail an outline without numbered headings as writer_bad_answer', async () => {
    const server = await standIn({ answer: (call) => (call.kind === 'outline' ? 'Sure! Here is a great article plan for you.' : undefined) });
    const emulator = await emulatorWith({ url: server.url });
    const record = await settled(emulator, await created(emulator, { targetKeyword: 'v60' }));
    expect(record).toMatchObject({ status: 'failed', statusDetail: 'Failed while creating the outline', error: { code: 'writer_bad_answer' } });
    expect(record.error!.message).toMatch(/outline for "v60" had no numbered headings/);
  });

  it('should apply an injected article failure to a live article too, billing nothing', async () => {
    const server = await standIn();
    const emulator = await emulatorWith({ url: server.url }, { faults: { failedArticles: { share: 1, code: 'content_policy', message: 'Refused by policy.' } } });
    const record = await settled(emulator, await created(emulator, { targetKeyword: 'flat white', articleLength: 'shorter' }));
    expect(record).toMatchObject({ status: 'failed', error: { code: 'content_policy', message: 'Refused by policy.' } });
    expect(record.statusDetail).toMatch(/^Failed while /);
    expect(emulator.ledger.totals.billedWords).toBe(0);
  });
});

describe('the model writer\'s key', () => {
  const SECRET = 'sk-writer-SECRET+key/0123456789';
  const forms = [SECRET, encodeURIComponent(SECRET), Buffer.from(SECRET).toString('base64'), Buffer.from(`Bearer ${SECRET}`).toString('base64'), Buffer.from(SECRET).toString('base64url')];

  it('should send the key to the writer and never show it in a status record, the log, the ledger or the state file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aal-writer-key-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const lines: string[] = [];
    const server = await standIn({ fault: (call) => (call.kind === 'body' ? 'echo_key' : undefined) });
    const stateFile = join(dir, 'state.json');
    const emulator = await emulatorWith({ url: server.url, apiKey: SECRET }, { stateFile, onRequest: (line) => lines.push(line) });
    const id = await created(emulator, { targetKeyword: 'turkish coffee', articleLength: 'shorter' });
    const record = await settled(emulator, id);
    expect(server.calls[0]!.authorization).toBe(`Bearer ${SECRET}`);
    expect(record.error!.message).toContain('[redacted]');
    const statusOverHttp = await (await fetch(`${emulator.url}/api/articles/${id}`, { headers: { authorization: `Bearer ${KEY}` } })).text();
    await emulator.stop();
    const texts = [JSON.stringify(record), statusOverHttp, lines.join('\n'), JSON.stringify(emulator.ledger), JSON.stringify(emulator.requests), await readFile(stateFile, 'utf8')];
    for (const text of texts) for (const form of forms) expect(text).not.toContain(form);
  });

  it('should refuse bad writer options without echoing the key', async () => {
    await expect(startEmulator({ writer: { url: `ftp://user:${SECRET}@example.test/v1`, apiKey: SECRET } })).rejects.toThrow(/writer\.url must be the absolute http\(s\) base URL/);
    await expect(startEmulator({ writer: { url: `ftp://user:${SECRET}@example.test/v1`, apiKey: SECRET } })).rejects.not.toThrow(SECRET);
    await expect(startEmulator({ writer: { url: 'http://127.0.0.1:1/v1', concurrency: 0 } })).rejects.toThrow(/writer\.concurrency is 0/);
  });
});
