// The block `astro build` ends with: what the article loaders did and what it cost, from the queues they published.
import type { QueueSnapshot } from '../loader/runtime.js';
import { shortPath } from '../loader/sync-report.js';

const numbers = new Intl.NumberFormat('en-US');

/**
 * Figures a loader may report beyond `QueueSnapshot['totals']`. Each is printed only when present:
 * the summary never shows a number the loader did not measure.
 */
export interface ReportedTotals {
  /** Words billed by the service (text + images) for the articles that finished, as recorded in the lock file (sync's `recordedWords`). */
  billedWords?: number;
  /** Of `billedWords`, the part billed for generated images. */
  imageWords?: number;
  /** Credits spent on the internal-links endpoint. */
  linkCredits?: number;
}

type Snapshot = Omit<QueueSnapshot, 'totals'> & { totals: QueueSnapshot['totals'] & ReportedTotals };

function count(value: number, singular: string, plural = `${singular}s`): string {
  return `${numbers.format(value)} ${value === 1 ? singular : plural}`;
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return ms > 0 && seconds === 0 ? 'under 1 s' : `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
}

function sum(snapshots: readonly Snapshot[], pick: (s: Snapshot) => number | undefined): number | undefined {
  let total = 0;
  for (const snapshot of snapshots) {
    const value = pick(snapshot);
    if (value === undefined) return undefined;
    total += value;
  }
  return total;
}

/** `12 articles: 9 reused, 2 finished, 1 failed` — every article once, by how the build left it. */
function outcomes(snapshots: readonly Snapshot[]): string {
  let reused = 0;
  let finished = 0;
  let failed = 0;
  let pending = 0;
  for (const snapshot of snapshots) {
    for (const article of snapshot.articles) {
      if (article.state === 'reused') reused += 1;
      else if (article.state === 'finished') finished += 1;
      else if (article.state === 'failed') failed += 1;
      else pending += 1;
    }
  }
  const parts = [`${numbers.format(reused)} reused`];
  if (finished > 0) parts.push(`${numbers.format(finished)} finished`);
  if (failed > 0) parts.push(`${numbers.format(failed)} failed`);
  if (pending > 0) parts.push(`${numbers.format(pending)} still being written`);
  const total = reused + finished + failed + pending;
  const where = snapshots.length > 1 ? ` in ${snapshots.length} collections (${snapshots.map((s) => `${s.collection}: ${numbers.format(s.articles.length)}`).join(', ')})` : '';
  return `${count(total, 'article')}${where}: ${parts.join(', ')}`;
}

function billed(snapshots: readonly Snapshot[]): string {
  const remote = snapshots.filter((s) => s.mode === 'remote');
  const offline = sum(
    snapshots.filter((s) => s.mode === 'offline'),
    (s) => s.totals.created,
  ) ?? 0;
  const created = sum(remote, (s) => s.totals.created) ?? 0;
  const parts: string[] = [];
  if (created > 0) {
    // The service gives a failed article's words back, so the estimate leaves failed articles out.
    const failed = remote.reduce((n, s) => n + s.articles.filter((a) => a.state === 'failed' && a.wordsBilled > 0).length, 0);
    const actual = sum(remote, (s) => s.totals.billedWords);
    const images = sum(remote, (s) => s.totals.imageWords);
    const estimate = remote.reduce((n, s) => n + s.articles.reduce((w, a) => w + (a.state === 'failed' ? 0 : a.wordsBilled), 0), 0);
    // A recorded figure covers the articles that finished; with none finished yet, the estimate says more.
    const words =
      actual === undefined || actual === 0
        ? estimate === 0
          ? 'nothing billed'
          : `≈${numbers.format(estimate)} words billed (estimated from the request settings, images included)`
        : `${numbers.format(actual)} words billed${images === undefined ? '' : ` (${numbers.format(images)} of them for images)`}`;
    parts.push(`${count(created, 'new article')} created${failed > 0 ? ` (${numbers.format(failed)} failed, not billed)` : ''}, ${words}`);
  }
  // Offline, the embedded emulator writes placeholder text: an estimate of words "billed" would mislead.
  if (offline > 0) parts.push(`${count(offline, 'new article')} written offline by the embedded emulator (placeholder text, nothing billed)`);
  return parts.length === 0 ? 'nothing created, nothing billed' : parts.join('; ');
}

function links(snapshots: readonly Snapshot[]): string {
  const credits = sum(snapshots, (s) => s.totals.linkCredits);
  return credits === undefined ? 'internal-link credits: not measured (the loader does not report them yet)' : `${count(credits, 'internal-link credit')} spent`;
}

function service(snapshots: readonly Snapshot[]): string {
  const requests = sum(snapshots, (s) => s.totals.requests) ?? 0;
  if (requests === 0) return 'no requests: every article came from the cache';
  const waited = sum(snapshots, (s) => s.totals.waitedMs) ?? 0;
  return `${count(requests, 'request')}${waited > 0 ? `, ${duration(waited)} waiting for articles to be written` : ', no waiting'}`;
}

/** The files to commit, once per lock file (several collections may share one). */
function commit(snapshots: readonly Snapshot[], root: string): string | undefined {
  const changed = new Map<string, string>();
  for (const snapshot of snapshots) {
    if (snapshot.changed) changed.set(snapshot.lockFile, `${shortPath(snapshot.lockFile, root)} and ${shortPath(snapshot.cacheDir, root)}/`);
  }
  if (changed.size === 0) return undefined;
  return `${[...changed.values()].join('; ')} changed: commit them, so the next build (and CI) reuses these articles`;
}

/**
 * The summary block, or undefined when no article collection was loaded. One label per line,
 * aligned, so it reads as one block in the build log:
 *
 * ```
 * build summary
 *   articles  12 articles: 9 reused, 2 finished, 1 failed
 *   billed    2 new articles created, ≈3,600 words billed (estimated from the request settings, images included)
 *   links     internal-link credits: not measured (the loader does not report them yet)
 *   service   14 requests, 38 s waiting for articles to be written
 *   commit    articles.lock.json and articles.cache/ changed: commit them, …
 * ```
 */
export function formatBuildSummary(input: readonly QueueSnapshot[], root: string): string | undefined {
  const snapshots = [...input].sort((a, b) => a.collection.localeCompare(b.collection)) as Snapshot[];
  if (snapshots.length === 0) return undefined;
  const rows: [string, string][] = [
    ['articles', outcomes(snapshots)],
    ['billed', billed(snapshots)],
    ['links', links(snapshots)],
    ['service', service(snapshots)],
  ];
  const files = commit(snapshots, root);
  if (files !== undefined) rows.push(['commit', files]);
  for (const snapshot of snapshots) {
    if (snapshot.problem !== null) rows.push(['problem', snapshots.length > 1 ? `${snapshot.collection}: ${snapshot.problem}` : snapshot.problem]);
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  return ['build summary', ...rows.map(([label, text]) => `  ${label.padEnd(width)}  ${text}`)].join('\n');
}
