// Model-writer overhead: what the emulator itself adds per article when the model answers at once (an instant loopback
// stand-in of an OpenAI-compatible server, streaming SSE), and the writer's own work without HTTP.
//
// Run: npm run build && node bench/writer-overhead.mjs   (BENCH_ARTICLES=… to change the count)
// As a module: `const { name, figures } = await run()` for a bench runner.

import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { importDist } from './dist-location.mjs';

const TARGET_MS_PER_ARTICLE = 5;
const REQUEST = { targetKeyword: 'pour over coffee', includeFaq: true, includeKeyTakeaways: true };

/** About `count` words of filler prose. */
function words(count) {
  return Array.from({ length: count }, (_, i) => (i % 9 === 8 ? 'coffee.' : 'water')).join(' ');
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

function sse(text) {
  const pieces = text.match(/[\s\S]{1,60}/g) ?? [];
  const chunk = (delta, finish) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return pieces.map((piece) => chunk({ content: piece }, null)).join('') + chunk({}, 'stop') + 'data: [DONE]\n\n';
}

/** The instant stand-in: every call answered at once, streamed. */
async function startInstantWriter() {
  let calls = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (part) => (body += part));
    req.on('end', () => {
      calls++;
      const { messages } = JSON.parse(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse(answer(messages.at(-1).content)));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    calls: () => calls,
    stop: () => new Promise((resolve) => (server.close(resolve), server.closeAllConnections())),
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(result.name);
  for (const figure of result.figures) {
    const target = figure.target ? `  target ${figure.target}  ${figure.ok ? 'OK' : 'MISSED'}` : '';
    console.log(`  ${figure.label.padEnd(40)} ${String(figure.value).padStart(9)} ${figure.unit}${target}`);
  }
}
