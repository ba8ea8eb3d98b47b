// Hand edits: an article's HTML copied to `articles.edits/<slug>.html` to be changed by hand, and served instead of the service's output while the file exists. Never written over, never pruned.
import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { listTree, readIfPresent, writeFileAtomic } from './atomic-file.js';
import type { LockFile } from './lock-file.js';

/** A hand edit as read: its file, its HTML, and the article it was copied from (from its header). */
export interface HandEdit {
  slug: string;
  file: string;
  html: string;
  /** The article id the edit started from; a later one in the lock file means a newer article exists behind the edit. */
  baseArticleId: string | undefined;
}

/** A problem `verify` reports about an edit. */
export interface EditProblem {
  code: 'orphan_edit' | 'empty_edit' | 'edit_behind';
  severity: 'error' | 'warning';
  file: string;
  slug: string;
  message: string;
}

const HEADER = /^\s*<!--\s*astro-article-loader: hand edit of "[^"]*" \(article ([^)\s]+)\)/;

/** The edits directory of a lock file: named after it, beside it (`articles.lock.json` → `articles.edits/`). */
/** The sha256 (hex) of a hand edit's text: what a processed record keeps of the edit it was made from (loader and `check` alike). */
export function editHash(edit: string): string {
  return createHash('sha256').update(edit).digest('hex');
}

export function editsDirFor(lockFile: string): string {
  const stem = /^(.+)\.lock\.json$/.exec(basename(lockFile))?.[1] ?? 'articles';
  return join(dirname(lockFile), `${stem}.edits`);
}

export function editFile(editsDir: string, slug: string): string {
  return join(editsDir, `${slug}.html`);
}

/** The first lines of an edit: what it is, which article it came from, and how to undo it. */
export function editHeader(slug: string, articleId: string): string {
  return `<!-- astro-article-loader: hand edit of "${slug}" (article ${articleId}). Served instead of the service's article while this file exists; the site's sanitizer and pipeline still apply. Delete the file to serve the service's article again. -->\n`;
}

/** The slugs that have an edit (an empty list when there is no edits directory). */
export async function listEdits(editsDir: string): Promise<string[]> {
  // Nested: a translation's edit is `<edits>/de/pour-over-kaffee.html`.
  return (await listTree(editsDir)).filter((name) => name.endsWith('.html') && !basename(name).startsWith('.')).map((name) => name.slice(0, -'.html'.length));
}

/** The edit of `slug`, or undefined when there is none. */
export async function readEdit(editsDir: string, slug: string): Promise<HandEdit | undefined> {
  const file = editFile(editsDir, slug);
  const html = await readIfPresent(file, 'utf8');
  if (html === undefined) return undefined;
  return { slug, file, html, baseArticleId: HEADER.exec(html)?.[1] };
}

/** Writes a new edit of `slug` from `html`; an existing edit is never written over (returns false). */
export async function writeEdit(editsDir: string, slug: string, articleId: string, html: string): Promise<{ file: string; written: boolean }> {
  const file = editFile(editsDir, slug);
  if (await stat(file).then(() => true, () => false)) return { file, written: false };
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, `${editHeader(slug, articleId)}${html.endsWith('\n') ? html : `${html}\n`}`);
  return { file, written: true };
}

/** Whether a newer article than the one an edit started from exists in the lock file. */
export function editIsBehind(edit: HandEdit, lock: LockFile): boolean {
  const current = lock.articles[edit.slug]?.articleId;
  return edit.baseArticleId !== undefined && current !== undefined && current !== edit.baseArticleId;
}

/** What `verify` says of the edits: one for an entry that is gone, one with no text, one behind a newer article. */
export async function editProblems(editsDir: string, lock: LockFile): Promise<EditProblem[]> {
  const problems: EditProblem[] = [];
  for (const slug of await listEdits(editsDir)) {
    const edit = (await readEdit(editsDir, slug))!;
    const base = { file: edit.file, slug };
    if (lock.articles[slug] === undefined) {
      problems.push({ ...base, code: 'orphan_edit', severity: 'warning', message: `the edit of "${slug}" has no lock entry (not served unless the manifest lists "${slug}"); delete ${edit.file} if it is no longer wanted` });
    }
    if (edit.html.replace(/<!--[\s\S]*?-->/g, '').trim() === '') {
      problems.push({ ...base, code: 'empty_edit', severity: 'error', message: `the edit of "${slug}" has no content, so the page would be empty; write the article back in, or delete ${edit.file}` });
    } else if (editIsBehind(edit, lock)) {
      problems.push({ ...base, code: 'edit_behind', severity: 'warning', message: `the edit of "${slug}" started from article ${edit.baseArticleId}, but a newer article (${lock.articles[slug]!.articleId}) exists behind it; delete ${edit.file} to serve the new one, or carry your changes over` });
    }
  }
  return problems;
}
