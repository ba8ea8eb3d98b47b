// A real `astro build` of a site with two collections parses each collection's manifest and lock file once, as its debug output counts them.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { astro, buildPackage, createSite, type RunResult, type Site } from './astro-site.js';

let emulator: RunningEmulator;
let site: Site;
let first: RunResult;
let second: RunResult;
let cold: RunResult;

const CONFIG = `import { defineCollection } from 'astro:content';
import { ARTICLES_API_KEY, ARTICLES_API_URL } from 'astro:env/server';
import { articleLoader } from 'astro-article-loader';

const service = { apiKey: ARTICLES_API_KEY, baseUrl: ARTICLES_API_URL, pollIntervalMs: 20 };
export const collections = {
  articles: defineCollection({ loader: articleLoader({ manifest: './articles.yaml', ...service }) }),
  guides: defineCollection({ loader: articleLoader({ manifest: './guides.yaml', ...service }) }),
};
`;

/** The debug line each collection's pass ends with: how many times this build's process parsed its manifest and lock file. */
function parseLines(output: string): string[] {
  return output.split('\n').flatMap((line) => {
    const match = /(articles|guides): parses in this process: (.*)$/.exec(line);
    return match === null ? [] : [`${match[1]}: ${match[2]!.trim()}`];
  });
}

beforeAll(async () => {
  await buildPackage();
  emulator = await startEmulator({ timing: 'instant' });
  site = await createSite('basic');
  await writeFile(join(site.root, 'src/content.config.ts'), CONFIG);
  await writeFile(join(site.root, 'guides.yaml'), 'articles:\n  - keyword: espresso grinder guide\n    articleLength: short\n  - keyword: milk frothing guide\n    articleLength: short\n');
  const env = { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey };
  first = await astro(site.root, ['build', '--verbose'], env);
  second = await astro(site.root, ['build', '--verbose'], env);
  // A cold store, as in a fresh CI checkout: no data store, no build notes.
  await rm(join(site.root, '.astro'), { recursive: true, force: true });
  await rm(join(site.root, 'node_modules/.astro'), { recursive: true, force: true });
  cold = await astro(site.root, ['build', '--verbose'], env);
}, 300_000);

afterAll(async () => {
  await emulator?.stop();
  await site?.cleanup();
});

describe('one build reads each manifest and lock file once', () => {
  it('should parse each collection\'s manifest once in a build that creates its articles, and no lock file (none yet: the sync writes it from memory)', async () => {
    expect(first.code, first.output).toBe(0);
    // Each collection has its own lock file, written by this build.
    expect(JSON.parse(await readFile(join(site.root, 'guides.lock.json'), 'utf8')).articles).toHaveProperty('milk-frothing-guide');
    expect(parseLines(first.output).sort()).toEqual(['articles: manifest 1, lock file 0', 'guides: manifest 1, lock file 0']);
  });

  it('should parse no manifest again and each lock file once in the next build (the manifest memo stands)', () => {
    expect(second.code, second.output).toBe(0);
    expect(parseLines(second.output).sort()).toEqual(['articles: manifest 0, lock file 1', 'guides: manifest 0, lock file 1']);
  });

  it('should parse each manifest and lock file once in a build with a cold store', () => {
    expect(cold.code, cold.output).toBe(0);
    expect(parseLines(cold.output).sort()).toEqual(['articles: manifest 1, lock file 1', 'guides: manifest 1, lock file 1']);
  });
});
