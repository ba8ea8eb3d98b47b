// Model-writer overhead: what the emulator itself adds per article when the model answers at once (an instant loopback
// stand-in of an OpenAI-compatible server on a worker thread, streaming SSE), and the writer's own work without HTTP.
//
// Run: npm run build && node bench/writer-overhead.mjs   (BENCH_ARTICLES=… to change the count)
// As a module: `const { name, figures } = await run()` for a bench runner.

import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { importDist } from './dist-location.mjs';

const TARGET_MS_PER_ARTICLE = 5;
const REQUEST = { targetKeyword: 'pour over coffee', includeFaq: true, includeKeyTakeaways: true };

const PROSE = 'The grind size sets how fast water moves through the coffee, so a finer grind slows the pour and pulls more flavor from each bean. Start with a ratio of one gram to sixteen, weigh both, and adjust by taste rather than by habit.'.split(' ');
const filler = new Map();

/** About `count` words of ordinary prose (memoized: the stand-in's own work is not the emulator's). */
function words(count) {
  if (!filler.has(count)) filler.set(count, Array.from({ length: count }, (_, i) => PROSE[i % PROSE.length]).join(' '));
  return filler.get(count);
}

/** The answer a model would give to a call, read from its prompt (outline, FAQ, takeaways, prose). */
function answer(user) {
  const count = /exactly (\d+) numbered/.exec(user)?.[1];
  if (count !== undefined) return `Title: A Bench Article\n${Array.from({ length: Number(count) }, (_, i) => `${i + 1}. Section ${i + 1}`).join('\n')}`;
  if (user.includes('frequently asked questions')) return '### Is it fast?\n\nYes it is.\n\n### Is it slow?\n\nNo it is not.';
  if (user.includes('key takeaways')) return '- One.\n- Two.\n- Three.';
  const target = Number(/about (\d+) words/.exec(user)?.[1] ?? 100);
  return `## Heading\n\n${words(target / 2)}\n\n- **A** point\n- Another point\n\n${words(target / 2)}`;
}

const streams = new Map();

/** The answer as a stream of chunks of 60 characters (memoized by text). */
function sse(text) {
  if (!streams.has(text)) streams.set(text, toSse(text));
  return streams.get(text);
}

function toSse(text) {
  const pieces = text.match(/[\s\S]{1,60}/g) ?? [];
  const chunk = (delta, finish) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return pieces.map((piece) => chunk({ content: piece }, null)).join('') + chunk({}, 'stop') + 'data: [DONE]\n\n';
}

/** The stand-in's server (in its worker thread): every call answered at once, streamed; `counter[0]` counts calls. */
async function serveStandIn(counter) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (part) => (body += part));
    req.on('end', () => {
      Atomics.add(counter, 0, 1);
      const { messages } = JSON.parse(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse(answer(messages.at(-1).content)));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  parentPort.postMessage(server.address().port);
}

/**
 * The instant stand-in, on a worker thread of its own: a model runs in another process, so its
 * server's work (parsing requests, writing streams) is not the emulator's and is not timed with it.
 */
async function startInstantWriter() {
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL(import.meta.url), { workerData: { standIn: counter } });
  const port = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls: () => Atomics.load(counter, 0),
    stop: () => worker.terminate(),
  };
}

async function createAndWait(emulator, body) {
  const headers = { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'application/json' };
  const response = await fetch(`${emulator.url}/api/articles/`, { method: 'POST', headers, body: JSON.stringify(body) });
  const { articleId } = await response.json();
  await emulator.settle();
  const record = emulator.article(articleId);
  if (record.status !== 'finished') throw new Error(`the bench article ended ${record.status}: ${JSON.stringify(record.error)}`);
  return record;
}

/** The writer's work alone: prompts, outline parsing, Markdown → HTML, word count; the model's answers come from memory. */
async function writerWorkMs(count) {
  const { writeWithModel } = await importDist('emulator/model-writer/write-article.js');
  const { articleRequestSchema } = await importDist('spec/request-schema.js');
  const request = articleRequestSchema.parse(REQUEST);
  const chat = { complete: async ({ messages }) => answer(messages.at(-1).content) };
  const signal = new AbortController().signal;
  for (let i = 0; i < 20; i++) await writeWithModel(request, chat, () => {}, signal);
  const started = performance.now();
  for (let i = 0; i < count; i++) await writeWithModel(request, chat, () => {}, signal);
  return (performance.now() - started) / count;
}

/** Markdown → HTML (remark → rehype) of one article's answers: the share of the writer's work unified takes. */
async function markdownMs(count) {
  const { markdownToHtml } = await importDist('emulator/model-writer/markdown-html.js');
  const { writeWithModel } = await importDist('emulator/model-writer/write-article.js');
  const { articleRequestSchema } = await importDist('spec/request-schema.js');
  const answers = [];
  const chat = { complete: async ({ messages }) => (answers.push(answer(messages.at(-1).content)), answers.at(-1)) };
  await writeWithModel(articleRequestSchema.parse(REQUEST), chat, () => {}, new AbortController().signal);
  const parts = answers.slice(1);
  const options = { minDepth: 3, dropLeadingHeadings: 6, boldQuestionsAsHeadings: false };
  const started = performance.now();
  for (let i = 0; i < count; i++) for (const part of parts) markdownToHtml(part, options);
  return (performance.now() - started) / count;
}

/** Measure and return the figures (no printing). */
export async function run({ articles = Number(process.env.BENCH_ARTICLES ?? 200) } = {}) {
  const { startEmulator } = await importDist('emulator/index.js');
  const writer = await startInstantWriter();
  const emulator = await startEmulator({ timing: 'instant', rateLimit: false, writer: { url: writer.url, retries: 0 } });
  try {
    for (let i = 0; i < 20; i++) await createAndWait(emulator, { ...REQUEST, targetKeyword: `warm up ${i}` });
    const callsBefore = writer.calls();
    let html = '';
    const started = performance.now();
    for (let i = 0; i < articles; i++) html = (await createAndWait(emulator, { ...REQUEST, targetKeyword: `bench article ${i}` })).output.html;
    const perArticle = (performance.now() - started) / articles;
    const callsPerArticle = (writer.calls() - callsBefore) / articles;
    const work = await writerWorkMs(articles);
    const markdown = await markdownMs(articles);
    return {
      name: 'writer-overhead',
      figures: [
        { label: 'create → finished, instant model', value: Math.round(perArticle * 100) / 100, unit: 'ms/article', target: `≤ ${TARGET_MS_PER_ARTICLE}`, ok: perArticle <= TARGET_MS_PER_ARTICLE },
        { label: 'calls to the model per article', value: callsPerArticle, unit: 'calls' },
        { label: 'per call (HTTP + SSE + parsing)', value: Math.round((perArticle / callsPerArticle) * 1000) / 1000, unit: 'ms' },
        { label: 'writer work alone (no HTTP)', value: Math.round(work * 1000) / 1000, unit: 'ms/article' },
        { label: '  of which Markdown → HTML (unified)', value: Math.round(markdown * 1000) / 1000, unit: 'ms/article' },
        { label: 'emulator without Markdown → HTML', value: Math.round((perArticle - markdown) * 100) / 100, unit: 'ms/article' },
        { label: 'article size', value: html.length, unit: 'chars' },
      ],
    };
  } finally {
    await emulator.stop();
    await writer.stop();
  }
}

if (!isMainThread && workerData?.standIn !== undefined) {
  await serveStandIn(workerData.standIn);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(result.name);
  for (const figure of result.figures) {
    const target = figure.target ? `  target ${figure.target}  ${figure.ok ? 'OK' : 'MISSED'}` : '';
    console.log(`  ${figure.label.padEnd(40)} ${String(figure.value).padStart(9)} ${figure.unit}${target}`);
  }
}
