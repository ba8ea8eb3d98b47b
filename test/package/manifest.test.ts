// package.json as a registry would publish it: every runtime dependency used by dist/, every package dist/ imports declared, an engines floor no lower than the dependencies', the files it needs.
import { readdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, REPO } from '../loader/astro-site.js';

interface PackageJson {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  engines: { node: string };
  files: string[];
  keywords: string[];
  repository?: unknown;
  homepage?: string;
  bugs?: unknown;
  license: string;
}

let pkg: PackageJson;
const imported = new Set<string>();

async function jsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? jsFiles(join(dir, entry.name)) : Promise.resolve(entry.name.endsWith('.js') ? [join(dir, entry.name)] : []))));
  return nested.flat();
}

/** `@scope/name` or `name` of a bare specifier. */
const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const floor = (range: string): number[] => (/(\d+)\.(\d+)\.(\d+)/.exec(range) ?? ['', '0', '0', '0']).slice(1).map(Number);
const atLeast = (a: number[], b: number[]): boolean => a[0]! !== b[0]! ? a[0]! > b[0]! : a[1]! !== b[1]! ? a[1]! > b[1]! : a[2]! >= b[2]!;

beforeAll(async () => {
  await buildPackage();
  pkg = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as PackageJson;
  for (const file of await jsFiles(join(REPO, 'dist'))) {
    // Comments (JSDoc examples) are not imports.
    const text = (await readFile(file, 'utf8')).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    // `resolve('pkg/…')` of a createRequire counts too: how a package's files (the cover card's font) are found.
    for (const match of text.matchAll(/^\s*(?:import|export)\b[^;]*?(?<!['"\w])from\s*['"]([^'".][^'"]*)['"]|^\s*import\s*['"]([^'".][^'"]*)['"]|\bimport\(\s*['"]([^'".][^'"]*)['"]\s*\)|\.resolve\(\s*['"]([^'".][^'"]*)['"]\s*\)/gm)) {
      imported.add((match[1] ?? match[2] ?? match[3] ?? match[4])!);
    }
  }
}, 120_000);

describe('package.json', () => {
  it('should declare every package dist/ imports, and use every runtime dependency', () => {
    const builtins = new Set(builtinModules);
    // `astro:*` are the virtual modules Astro provides to a site's code.
    const external = [...imported].filter((specifier) => !specifier.startsWith('node:') && !specifier.startsWith('astro:') && !builtins.has(specifier)).map(packageOf);
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
    expect([...new Set(external)].filter((name) => !declared.has(name))).toEqual([]);
    expect(external.length).toBeGreaterThan(10);
    expect(Object.keys(pkg.dependencies).filter((name) => !external.includes(name))).toEqual([]);
  });

  it('should ask for a Node no older than any runtime dependency needs', async () => {
    const ours = floor(pkg.engines.node);
    for (const name of Object.keys(pkg.dependencies)) {
      const theirs = (JSON.parse(await readFile(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines?.node;
      if (theirs !== undefined && /^>=?\s*\d/.test(theirs.trim())) expect(atLeast(ours, floor(theirs)), `${name} needs Node ${theirs}`).toBe(true);
    }
  });

  it('should ship the license and the README image, and say where it lives and how Astro lists it', async () => {
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'LICENSE']));
    expect(await readFile(join(REPO, 'LICENSE'), 'utf8')).toContain(`${pkg.license} License`);
    expect(pkg.keywords).toEqual(expect.arrayContaining(['withastro', 'astro-loader']));
    expect(pkg.repository).toBeDefined();
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs).toBeDefined();
    const readme = await readFile(join(REPO, 'README.md'), 'utf8');
    for (const [, image] of readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)) {
      if (!/^https?:/.test(image!)) expect(pkg.files, image).toContain(image);
    }
  });
});
