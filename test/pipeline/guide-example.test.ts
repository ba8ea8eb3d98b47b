// The pipeline guide's example of the plugins on their own runs as written (against the built package) and prints what the guide says it prints.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, REPO } from '../loader/astro-site.js';

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  await buildPackage();
  dir = await mkdtemp(join(REPO, 'node_modules', '.guide-example-'));
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the pipeline guide's example", () => {
  it('should print the HTML and data its comments show', async () => {
    const guide = await readFile(join(REPO, 'docs/pipeline.md'), 'utf8');
    const block = /## The plugins on their own[\s\S]*?```ts\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(block).toBeDefined();
    const shown = /\/\/ String\(file\): '(.*)'\n/.exec(block!)?.[1];
    expect(shown).toBeDefined();
    const code = block!.replace("'astro-article-loader/pipeline'", `'${join(REPO, 'dist/pipeline/index.js')}'`) + '\nconsole.log(String(file));\nconsole.log(JSON.stringify(file.data.article.headings));\n';
    const script = join(dir, 'example.mjs');
    await writeFile(script, code);
    const { stdout } = await run(process.execPath, [script], { cwd: dir });
    const [html, headings] = stdout.trim().split('\n');
    expect(html).toBe(shown);
    expect(JSON.parse(headings!)).toEqual([{ depth: 2, slug: 'h-grinding', text: 'Grinding' }]);
  });
});
