// Child of the kill -9 and concurrent-build scenarios: one sync with the compiled package (dist/), one line per event.
//
// Usage: node sync-child.mjs <config.json>; the API key comes from ARTICLES_API_KEY, as in real use.
// Prints `ready` once the package is loaded, `event <type> <slug?>` per sync event, then
// `result <totals JSON>` or `error <code> <message>`.
import { readFile } from 'node:fs/promises';

const [configFile] = process.argv.slice(2);
const config = JSON.parse(await readFile(configFile, 'utf8'));
const dist = new URL('../../../dist/', import.meta.url);
const { createArticleClient, articleRequestSchema } = await import(new URL('api/index.js', dist).href);
const { syncArticles } = await import(new URL('sync/index.js', dist).href);

const client = createArticleClient({
  baseUrl: config.baseUrl,
  apiKey: process.env.ARTICLES_API_KEY ?? '',
  idempotentCreates: config.idempotentCreates,
  retry: { baseDelayMs: 10, maxDelayMs: 100 },
});
const specs = config.keywords.map((keyword) => ({
  slug: keyword.replace(/\s+/g, '-'),
  keyword,
  request: articleRequestSchema.parse({ targetKeyword: keyword, ...config.request }),
}));
console.log('ready');
try {
  const result = await syncArticles({
    specs,
    lockFile: config.lockFile,
    client,
    ...config.options,
    onEvent: (event) => console.log(`event ${event.type}${'slug' in event ? ` ${event.slug}` : ''}`),
  });
  console.log(`result ${JSON.stringify(result.totals)}`);
} catch (error) {
  console.log(`error ${error?.code ?? 'unknown'} ${error?.message}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
