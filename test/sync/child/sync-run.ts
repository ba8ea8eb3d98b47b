// Child for the crash and concurrency tests: one real sync against the emulator, events printed one per line.
import { readFile } from 'node:fs/promises';
import { articleRequestSchema } from '../../../src/api/index.js';
import { createArticleClient } from '../../../src/api/client.js';
import { syncArticles, type SyncOptions } from '../../../src/sync/index.js';

interface ChildConfig {
  lockFile: string;
  baseUrl: string;
  keywords: string[];
  options?: Partial<Pick<SyncOptions, 'budget' | 'concurrency' | 'poll' | 'timeoutMs' | 'idempotentCreates' | 'idempotencyKeys' | 'lock'>>;
}

const [configFile] = process.argv.slice(2);
if (configFile === undefined) throw new Error('usage: sync-run.ts <config.json>');
const config = JSON.parse(await readFile(configFile, 'utf8')) as ChildConfig;
// The key comes from the environment, as in real use: never on a command line.
const apiKey = process.env.ARTICLES_API_KEY ?? '';

const client = createArticleClient({ baseUrl: config.baseUrl, apiKey, idempotentCreates: true, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
const specs = config.keywords.map((keyword) => ({
  slug: keyword.replace(/\s+/g, '-'),
  keyword,
  request: articleRequestSchema.parse({ targetKeyword: keyword }),
}));
try {
  const result = await syncArticles({
    specs,
    lockFile: config.lockFile,
    client,
    idempotentCreates: true,
    ...config.options,
    onEvent: (event) => {
      const slug = 'slug' in event ? ` ${event.slug}` : '';
      console.log(`event ${event.type}${slug}`);
    },
  });
  console.log(`result ${JSON.stringify(result.totals)}`);
} catch (error) {
  console.log(`error ${(error as { code?: string }).code ?? 'unknown'} ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
