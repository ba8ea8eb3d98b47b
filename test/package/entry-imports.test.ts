// What importing the package loads: the root, the loader and the integration load no emulator, model writer, service client, HTTP stack, CLI or pipeline plugin until a build needs them.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, REPO } from '../loader/astro-site.js';
import { MODULE_LOG_FILES, moduleLogEnv } from '../module-log.js';

/** The canvas (and its native module) and the font files: what drawing a cover card loads. */
const CARD_LIBRARIES = /\/node_modules\/(@napi-rs\/[^/]+|@fontsource(-variable)?\/[^/]+)\/|\/dist\/cover\/card-drawing\.js$/;

/**
 * Loaded only when a build processes an article, reaches the service or goes offline. The
 * emulator's writer settings (`emulator/model-writer/writer-settings.js`: environment names and
 * option checks, no dependency) and its flaws knob's settings (`emulator/flaw-options.js`) are the
 * parts of the emulator room the options need.
 */
const HEAVY = [
  /\/dist\/emulator\/(?!model-writer\/writer-settings\.js$|flaw-options\.js$|errors\.js$)/,
  /\/dist\/api\/(?!errors\.js$)/,
  /\/dist\/cli\//,
  /\/dist\/service\/article-service\.js$/,
  /\/dist\/loader\/(article-collection|build-pass|pipeline-pool|store-writer)\.js$/,
  /\/dist\/pipeline\/(processor|parse|image-download|service-links|sanitize|headings|images|metadata|external-links|plain-text)\.js$/,
  // The request schema and the plan: the options need only the article types (contract/article-types.js) and the run rules.
  /\/dist\/contract\/request-schema\.js$/,
  /\/dist\/sync\/(plan|canonical-request)\.js$/,
  /\/node_modules\/(hast-util-to-text|github-slugger)\//,
  // The dev panel's endpoint and relay: astro:server:setup imports them.
  /\/dist\/integration\/(panel-endpoint|toolbar-relay)\.js$/,
  /\/node_modules\/(undici|remark-[^/]+|micromark[^/]*|mdast-[^/]+|unified|parse5|image-size|yaml|csv-parse)\//,
  // The cover card's drawing: loaded only when a card is not in the cache (src/cover/card-drawing.ts).
  CARD_LIBRARIES,
];

let dir: string;

/** The modules a fresh Node process resolves while importing `entry` (a file under dist/). */
async function modulesLoadedBy(entry: string): Promise<string[]> {
  const log = path.join(dir, `${entry.replaceAll('/', '_')}.log`);
  const url = pathToFileURL(path.join(REPO, 'dist', entry)).href;
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(url)});`], {
      cwd: dir,
      env: { ...process.env, ...moduleLogEnv(dir, log) },
      stdio: 'ignore',
    });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  expect(code).toBe(0);
  return (await readFile(log, 'utf8')).split('\n').filter((line) => line !== '');
}

describe('what importing the package loads', () => {
  beforeAll(async () => {
    await buildPackage();
    dir = await mkdtemp(path.join(tmpdir(), 'aal-entry-imports-'));
    for (const [name, text] of Object.entries(MODULE_LOG_FILES)) await writeFile(path.join(dir, name), text);
  }, 180_000);
  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  for (const entry of ['index.js', 'loader/index.js', 'integration/index.js']) {
    it(`should load no emulator, writer, client, HTTP stack, CLI or pipeline plugin when dist/${entry} is imported`, async () => {
      const modules = await modulesLoadedBy(entry);
      // The hooks saw the import (an empty log would pass the next assertion for nothing).
      expect(modules.some((url) => url.endsWith(`/dist/${entry}`))).toBe(true);
      expect(modules.filter((url) => HEAVY.some((pattern) => pattern.test(url)))).toEqual([]);
    });
  }

  it('should load neither the pipeline nor the service client with the build pass (all a cached build runs)', async () => {
    const modules = await modulesLoadedBy('loader/build-pass.js');
    expect(modules.some((url) => url.endsWith('/dist/loader/build-pass.js'))).toBe(true);
    // The manifest's parsers and the service's facade (article-service.js, which loads the client on its first request) are needed.
    const notNeeded = [
      /\/dist\/pipeline\/(processor|parse|sanitize|final-sanitize|internal-links|image-download|service-links)\.js$/,
      HEAVY[0]!, // the emulator, bar the writer settings the options need
      /\/dist\/cli\//,
      /\/dist\/api\/(?!errors\.js$)/,
      /\/node_modules\/(unified|rehype-[^/]+|hast-util-sanitize|parse5|undici|remark-[^/]+|micromark[^/]*)\//,
      CARD_LIBRARIES,
    ];
    expect(modules.filter((url) => notNeeded.some((pattern) => pattern.test(url)))).toEqual([]);
  });

  it('should load the loader itself and its options with the package root', async () => {
    const modules = await modulesLoadedBy('index.js');
    for (const part of ['/dist/loader/article-loader.js', '/dist/loader/options.js', '/dist/integration/integration.js']) {
      expect(modules.some((url) => url.endsWith(part)), part).toBe(true);
    }
  });
});
