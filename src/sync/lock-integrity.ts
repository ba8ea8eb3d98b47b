// The lock file is evidence: duplicate keys, hashes that don't match their request, outputs of another article.
import { parse, type AnyNode } from '@humanwhocodes/momoa';
import { requestHash } from './canonical-request.js';
import type { LockIntegrityProblem } from './errors.js';

/** What the hash check reads of a lock entry (structurally, so this module does not depend on the lock file's). */
interface HashedEntry {
  keyword: string;
  hash: string;
  request?: Record<string, unknown> | undefined;
}

export type { LockIntegrityCode, LockIntegrityProblem } from './errors.js';

/**
 * Keys given twice anywhere in the lock file's JSON, with their line. `json` is `JSON.parse(text)`:
 * comparing the number of keys in the text with the number kept is cheap, so a 10,000-entry lock
 * file pays for a full parse with positions only when there is a duplicate to point at.
 */
export function duplicateKeyProblems(text: string, json: unknown): LockIntegrityProblem[] {
  if (keyTokens(text) === keptKeys(json)) return [];
  const problems: LockIntegrityProblem[] = [];
  const walk = (node: AnyNode, path: string[]): void => {
    if (node.type === 'Document') return walk(node.body, path);
    if (node.type === 'Array') return node.elements.forEach((element, index) => walk(element.value, [...path, String(index)]));
    if (node.type !== 'Object') return;
    const seen = new Map<string, number>();
    for (const member of node.members) {
      const name = member.name.type === 'String' ? member.name.value : member.name.name;
      const line = member.name.loc.start.line;
      const first = seen.get(name);
      if (first !== undefined) problems.push(duplicateProblem([...path, name], line, first));
      else seen.set(name, line);
      walk(member.value, [...path, name]);
    }
  };
  walk(parse(text, { mode: 'json', ranges: false, tokens: false }), []);
  return problems;
}

function duplicateProblem(path: string[], line: number, firstLine: number): LockIntegrityProblem {
  const slug = path[0] === 'articles' ? path[1] : undefined;
  const field = path.slice(slug === undefined ? 0 : 2).join('.');
  const what = slug === undefined ? `the key "${field}"` : field === '' ? `the entry "${slug}"` : `the field "${field}" of "${slug}"`;
  return {
    code: 'duplicate_key',
    ...(slug === undefined ? {} : { slug }),
    line,
    message: `line ${line}: ${what} is given twice (first on line ${firstLine}); only one can be right, and a JSON reader keeps the last one silently`,
  };
}

/** A string token of JSON text followed by a colon (a key), and any string token: both sticky, tried where a token starts. */
const KEY_TOKEN = /"(?:[^"\\]|\\.)*"\s*:/y;
const STRING_TOKEN = /"(?:[^"\\]|\\.)*"/y;

/**
 * Object keys in JSON text: every string token followed by a colon. Valid JSON has no quote outside a string. Tested
 * token by token, in place: a match object for each of a 10,000-entry lock file's 260,000 strings was 42 MB of garbage.
 */
function keyTokens(text: string): number {
  let count = 0;
  let at = text.indexOf('"');
  while (at !== -1) {
    KEY_TOKEN.lastIndex = at;
    STRING_TOKEN.lastIndex = at;
    if (KEY_TOKEN.test(text)) count += 1;
    else if (!STRING_TOKEN.test(text)) break;
    at = text.indexOf('"', Math.max(KEY_TOKEN.lastIndex, STRING_TOKEN.lastIndex));
  }
  return count;
}

function keptKeys(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + keptKeys(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  for (const member of Object.values(value)) count += 1 + keptKeys(member);
  return count;
}

/**
 * Entries whose `hash` is not the hash of their recorded `request` (or whose request names another
 * keyword). Entries written before requests were recorded, or recorded in a form this version can't
 * read, have nothing to check against and pass.
 */
export function requestHashProblems(articles: Readonly<Record<string, HashedEntry>>): LockIntegrityProblem[] {
  const problems: LockIntegrityProblem[] = [];
  for (const [slug, entry] of Object.entries(articles)) {
    const recomputed = recordedRequestHash(entry);
    if (recomputed === undefined || recomputed === entry.hash) continue;
    const [recorded, expected, where] = hashesApart(entry.hash, recomputed);
    problems.push({
      code: 'request_hash_mismatch',
      slug,
      message: `"${slug}": its hash ${recorded} is not the hash of its recorded keyword and request (${expected}${where}), so the entry was edited or badly merged`,
    });
  }
  return problems;
}

const FULL_HASH = /^sha256:[0-9a-f]{64}$/;
/** `sha256:` and the first 12 hex digits: enough to tell two unrelated hashes apart at a glance. */
const HASH_HEAD = 19;

/**
 * Two hashes as the reader can tell them apart. Cut to the same head, two hashes that differ in one
 * late digit (a hand edit, a bad merge) look equal, so when the head is shared each also shows
 * 8 digits from the first one that differs, and says which digit that is. Anything that is not a
 * full hash (a hand-typed value, the note that the request names another keyword) is shown as it is.
 */
export function hashesApart(a: string, b: string): [string, string, string] {
  const head = (hash: string): string => (FULL_HASH.test(hash) ? `${hash.slice(0, HASH_HEAD)}…` : hash);
  if (!FULL_HASH.test(a) || !FULL_HASH.test(b)) return [head(a), head(b), ''];
  let at = 0;
  while (at < a.length && a[at] === b[at]) at += 1;
  // Equal, or apart within the head: the heads tell them apart (or show they are the same).
  if (at === a.length || at < HASH_HEAD) return [head(a), head(b), ''];
  const gap = at > HASH_HEAD ? '…' : '';
  const shown = (hash: string): string => `${hash.slice(0, HASH_HEAD)}${gap}${hash.slice(at, at + 8)}${at + 8 < hash.length ? '…' : ''}`;
  return [shown(a), shown(b), `; the two differ from hex digit ${at - 'sha256:'.length + 1} on`];
}

function recordedRequestHash(entry: HashedEntry): string | undefined {
  if (entry.request === undefined) return undefined;
  if (entry.request.targetKeyword !== entry.keyword) return 'sha256:(the request names another keyword)';
  try {
    return requestHash(entry.request);
  } catch {
    return undefined;
  }
}

/** A keyword as the service may echo it: spacing and case do not make another article. */
export function normalizedKeyword(keyword: string): string {
  return keyword.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Who a cached output was fetched for; outputs cached before this was recorded have neither. */
export interface OutputOwner {
  articleId?: string | undefined;
  targetKeyword?: string | undefined;
}

/**
 * An `output_mismatch` problem when an output cached for one article is what a lock entry points
 * at for another. `keyword` is checked only for the entry's current article: an earlier article
 * kept as `previous` may have been written for an earlier keyword of the same slug.
 */
export function outputOwnerProblem(
  slug: string,
  expected: { articleId: string; keyword?: string | undefined },
  output: OutputOwner,
): LockIntegrityProblem | undefined {
  const otherId = output.articleId !== undefined && output.articleId !== expected.articleId;
  const otherKeyword =
    expected.keyword !== undefined && output.targetKeyword !== undefined && normalizedKeyword(output.targetKeyword) !== normalizedKeyword(expected.keyword);
  if (!otherId && !otherKeyword) return undefined;
  const whose = otherId ? `article ${output.articleId}` : `the keyword ${JSON.stringify(output.targetKeyword)}`;
  return {
    code: 'output_mismatch',
    slug,
    message: `"${slug}" (article ${expected.articleId}) points at a cached output fetched for ${whose}, so the wrong article would be served`,
  };
}
