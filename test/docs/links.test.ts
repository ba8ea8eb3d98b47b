// Every relative link and #anchor in the README, CONTRIBUTING.md and docs/*.md leads somewhere: the file exists, and the
// anchor is a heading of the target as GitHub slugs it (github-slugger, duplicates numbered).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PAGES = ['README.md', 'CONTRIBUTING.md', ...readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** A page's lines outside fenced code blocks, where Markdown links and headings live. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** Inline code spans hold text, never links: `[phrase](url)` in backticks is an example. */
const withoutCode = (line: string): string => line.replace(/(`+)(?:(?!\1).)+?\1/g, '');

/** The link targets on a page, images included, in order. */
export function linksOf(text: string): string[] {
  return proseLines(text).flatMap((line) => [...withoutCode(line).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!));
}

/** The anchors GitHub gives a page's headings: the heading's text (no code marks, emphasis or link targets), slugged. */
export function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const plain = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    anchors.add(slugger.slug(plain));
  }
  return anchors;
}

/** What is wrong with one link from `page`, or undefined when it leads somewhere. */
function brokenLink(page: string, target: string): string | undefined {
  if (/^[a-z][a-z+.-]*:/i.test(target)) return undefined; // https:, mailto:: not ours to check here
  const [file, anchor] = target.split('#', 2) as [string, string | undefined];
  const resolved = file === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), decodeURI(file));
  if (!existsSync(resolved)) return `${target}: ${path.relative(ROOT, resolved)} does not exist`;
  if (anchor === undefined) return undefined;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`;
  if (!anchorsOf(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))) return `${target}: no heading of ${path.relative(ROOT, resolved)} has the anchor #${anchor}`;
  return undefined;
}

describe('the documentation links', () => {
  it('should find the pages and their links', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/cli.md', 'docs/manifest.md']));
    expect(linksOf(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).length).toBeGreaterThan(10);
  });

  it.each(PAGES)('should resolve every relative link and anchor in %s', (page) => {
    const broken = linksOf(readFileSync(path.join(ROOT, page), 'utf8'))
      .map((target) => brokenLink(page, target))
      .filter((problem) => problem !== undefined);
    expect(broken).toEqual([]);
  });

  it('should slug headings as GitHub does, and see through code spans and fences', () => {
    const anchors = anchorsOf('# The `articles()` integration: a panel\n```sh\n# not a heading\n```\n## Options (`ArticleContext`)\n## Options (`ArticleContext`)\n');
    expect([...anchors]).toEqual(['the-articles-integration-a-panel', 'options-articlecontext', 'options-articlecontext-1']);
    expect(linksOf('see [a](a.md#x) and `[b](b.md)`\n```\n[c](c.md)\n```\n![d](d.png)')).toEqual(['a.md#x', 'd.png']);
  });
});
