// The block `astro build` ends with: what the article loaders did and what it cost, from the queues they published.
import { billedByService } from '../contract/emulator-billing.js';
import type { QueueSnapshot } from '../loader/runtime.js';
import { shortPath } from '../loader/short-path.js';
import { unknownCreatesLines } from '../sync/unknown-creates.js';
import { formatCount, plural } from '../lang/count-text.js';

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return ms > 0 && seconds === 0 ? 'under 1 s' : `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
}

function sum(snapshots: readonly QueueSnapshot[], pick: (s: QueueSnapshot) => number): number {
  return snapshots.reduce((total, snapshot) => total + pick(snapshot), 0);
}

/** `12 articles: 9 reused, 2 finished, 1 failed` — every article once, by how the build left it. */
function outcomes(snapshots: readonly QueueSnapshot[]): string {
  let reused = 0;
  let finished = 0;
  let failed = 0;
  let unknown = 0;
  let pending = 0;
  for (const snapshot of snapshots) {
    for (const article of snapshot.articles) {
      if (article.state === 'reused') reused += 1;
      else if (article.state === 'finished') finished += 1;
      else if (article.state === 'failed') failed += 1;
      else if (article.state === 'unknown') unknown += 1;
      else pending += 1;
    }
  }
  const parts = [`${formatCount(reused)} reused`];
  if (finished > 0) parts.push(`${formatCount(finished)} finished`);
  if (failed > 0) parts.push(`${formatCount(failed)} failed`);
  if (unknown > 0) parts.push(`${formatCount(unknown)} unknown (not on the site; see below)`);
  if (pending > 0) parts.push(`${formatCount(pending)} still being written`);
  const total = reused + finished + failed + unknown + pending;
  const where = snapshots.length > 1 ? ` in ${snapshots.length} collections (${snapshots.map((s) => `${s.collection}: ${formatCount(s.articles.length)}`).join(', ')})` : '';
  return `${plural(total, 'article')}${where}: ${parts.join(', ')}`;
}

function billed(snapshots: readonly QueueSnapshot[]): string {
  // A collection synced offline had its articles written by the embedded emulator: not billed.
  const remote = snapshots.filter((s) => billedByService({ emulator: s.mode === 'offline' }));
  const offline = sum(
    snapshots.filter((s) => !billedByService({ emulator: s.mode === 'offline' })),
    (s) => s.totals.created,
  );
  const created = sum(remote, (s) => s.totals.created);
  const parts: string[] = [];
  if (created > 0) {
    // The service gives a failed article's words back.
    const failed = remote.reduce((n, s) => n + s.articles.filter((a) => a.state === 'failed' && a.wordsBilled > 0).length, 0);
    const recorded = sum(remote, (s) => s.totals.billedWords);
    const images = sum(remote, (s) => s.totals.imageWords);
    // Articles created but not finished (still being written when the build gave up) have no recorded figure yet.
    const estimated = remote.reduce((n, s) => n + s.articles.reduce((w, a) => w + (a.state === 'failed' || a.wordsRecorded ? 0 : a.wordsBilled), 0), 0);
    const measured = `${formatCount(recorded)} words billed${images > 0 ? ` (${formatCount(images)} of them for images)` : ''}`;
    const words =
      recorded === 0
        ? estimated === 0
          ? 'nothing billed'
          : `≈${formatCount(estimated)} words billed (estimated from the request settings, images included)`
        : estimated === 0
          ? measured
          : `${measured}, and ≈${formatCount(estimated)} for the articles still being written`;
    parts.push(`${plural(created, 'new article')} created${failed > 0 ? ` (${formatCount(failed)} failed, not billed)` : ''}, ${words}`);
  }
  const waitedFor = sum(remote, (s) => s.totals.waitedFor ?? 0);
  if (waitedFor > 0) parts.push(`${plural(waitedFor, 'article')} created by another build or an earlier run waited for (billed there, not here)`);
  // Offline, the embedded emulator writes placeholder text (or the owner's own model does): an estimate of words "billed" would mislead.
  if (offline > 0) parts.push(`${plural(offline, 'new article')} written offline by the embedded emulator (placeholder text or your own model, nothing billed)`);
  return parts.length === 0 ? 'nothing created, nothing billed' : parts.join('; ');
}

function links(snapshots: readonly QueueSnapshot[]): string {
  const credits = sum(snapshots, (s) => s.totals.linkCredits);
  return credits === 0 ? 'no internal-link credits spent' : `${plural(credits, 'internal-link credit')} spent`;
}

function service(snapshots: readonly QueueSnapshot[]): string {
  const requests = sum(snapshots, (s) => s.totals.requests);
  if (requests === 0) return 'no requests: every article came from the cache';
  const waited = sum(snapshots, (s) => s.totals.waitedMs);
  return `${plural(requests, 'request')}${waited > 0 ? `, ${duration(waited)} waiting for articles to be written` : ', no waiting'}`;
}

/** The files to commit, once per lock file (several collections may share one). */
function commit(snapshots: readonly QueueSnapshot[], root: string): string | undefined {
  const changed = new Map<string, string>();
  for (const snapshot of snapshots) {
    if (snapshot.changed) changed.set(snapshot.lockFile, `${shortPath(snapshot.lockFile, root)} and ${shortPath(snapshot.cacheDir, root)}/`);
  }
  if (changed.size === 0) return undefined;
  return `${[...changed.values()].join('; ')} changed: commit them, so the next build (and CI) reuses these articles`;
}

/** `3 errors, 5 warnings in 6 articles`, and each error finding by slug; undefined when no collection was checked or none found anything. */
function quality(snapshots: readonly QueueSnapshot[]): string[] | undefined {
  const checked = snapshots.flatMap((snapshot) => (snapshot.quality === undefined ? [] : [snapshot.quality]));
  const errors = checked.reduce((n, q) => n + q.errors, 0);
  const warnings = checked.reduce((n, q) => n + q.warnings, 0);
  if (errors + warnings === 0) return undefined;
  const articles = checked.reduce((n, q) => n + q.articles, 0);
  const lines = [`${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${plural(articles, 'article')} (\`astro-article-loader check\` lists them)`];
  for (const finding of checked.flatMap((q) => q.errorFindings)) lines.push(`error ${finding.slug}: ${finding.code}`);
  return lines;
}

/** With the review gate on: what waits (left out), and the approved articles built with an error finding; undefined with it off. */
function review(snapshots: readonly QueueSnapshot[]): string | undefined {
  const gated = snapshots.flatMap((snapshot) => (snapshot.review === undefined ? [] : [snapshot.review]));
  if (gated.length === 0) return undefined;
  const waiting = gated.flatMap((r) => r.waiting);
  const approved = gated.flatMap((r) => r.approvedWithErrors);
  const parts = [waiting.length === 0 ? 'nothing waits for review' : `${plural(waiting.length, 'article')} waiting for review, left out (\`astro-article-loader approve\`)`];
  if (approved.length > 0) parts.push(`${plural(approved.length, 'approved article')} built with an error finding, as you approved: ${approved.join(', ')}`);
  return parts.join('; ');
}

/**
 * The summary block, or undefined when no article collection was loaded. One label per line,
 * aligned, so it reads as one block in the build log:
 *
 * ```
 * build summary
 *   articles  12 articles: 9 reused, 2 finished, 1 failed
 *   billed    2 new articles created (1 failed, not billed), 1,432 words billed (200 of them for images)
 *   links     2 internal-link credits spent
 *   service   14 requests, 38 s waiting for articles to be written
 *   quality   1 error, 2 warnings in 2 articles (`astro-article-loader check` lists them)
 *             error best-shoes: writer_leftover
 *   review    2 articles waiting for review, left out (`astro-article-loader approve`); 1 approved article built with an error finding, as you approved: best-shoes
 *   commit    articles.lock.json and articles.cache/ changed: commit them, …
 * ```
 */
export function formatBuildSummary(input: readonly QueueSnapshot[], root: string): string | undefined {
  const snapshots = [...input].sort((a, b) => a.collection.localeCompare(b.collection));
  if (snapshots.length === 0) return undefined;
  const rows: [string, string][] = [
    ['articles', outcomes(snapshots)],
    ['billed', billed(snapshots)],
    ['links', links(snapshots)],
    ['service', service(snapshots)],
  ];
  const found = quality(snapshots);
  if (found !== undefined) rows.push(['quality', found.join('\n            ')]);
  const gate = review(snapshots);
  if (gate !== undefined) rows.push(['review', gate]);
  const files = commit(snapshots, root);
  if (files !== undefined) rows.push(['commit', files]);
  for (const snapshot of snapshots) {
    if (snapshot.problem !== null) rows.push(['problem', snapshots.length > 1 ? `${snapshot.collection}: ${snapshot.problem}` : snapshot.problem]);
  }
  const unknown = unknownCreatesLines(snapshots.flatMap((snapshot) => snapshot.articles.filter((article) => article.state === 'unknown')));
  if (unknown.length > 0) rows.push(['unknown', unknown.join('\n            ')]);
  const width = Math.max(...rows.map(([label]) => label.length));
  return ['build summary', ...rows.map(([label, text]) => `  ${label.padEnd(width)}  ${text}`)].join('\n');
}
