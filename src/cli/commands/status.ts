// `astro-article-loader status`: the lock file's articles, their status on the service (refreshed by GET), and the words billed so far.
import { articleRequestSchema, type ArticleStatus } from '../../api/index.js';
import { ArticleLoaderError } from '../../errors.js';
import type { Manifest } from '../../manifest/index.js';
import { articleAge, billedByService, estimateWords, formatAge, readLockState, recordedWords, requestHash, type ArticleAge, type LockEntry, type LockFile, unknownCreatesLines } from '../../sync/index.js';
import { currentTime } from '../../lang/clock.js';
import { COMMON_FLAG_HELP, type ParsedFlags } from '../command-line.js';
import type { CommandContext, CommandDefinition } from '../command-runner.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { shownPath } from '../manifest-location.js';
import { formatCount, plural, type CommandIo, type Output } from '../output.js';
import { editedLines, editedReport } from '../edited-report.js';
import { openLockProject } from '../project-files.js';
import { REVIEW_FLAG_HELP, REVIEW_FLAGS, reviewRequired } from '../review-flags.js';
import { reviewLines, reviewReport } from '../review-report.js';
import { currentFindings } from '../current-findings.js';
import { manifestQuality } from '../../quality/manifest-quality.js';
import { calendarLines, calendarReport } from '../calendar-report.js';
import { fitWidth } from '../progress-display.js';
import { connect, SERVICE_FLAG_HELP, SERVICE_FLAGS, serviceConfigured } from '../service-connection.js';
import { UsageError } from '../usage-error.js';

export const STATUS_COMMAND: CommandDefinition = {
  name: 'status',
  summary: "List the lock file's articles, their status on the service and the words billed so far.",
  flags: {
    ...SERVICE_FLAGS,
    ...REVIEW_FLAGS,
    'refresh-all': { type: 'boolean' },
    'no-refresh': { type: 'boolean' },
    concurrency: { type: 'string' },
  },
  help: `Usage: astro-article-loader status [options]

Lists every article of the lock file: its recorded status, its status on the service
(refreshed with one GET per unfinished article; free), and the words billed so far. It
never changes the lock file: \`sync\` records what it finds.

Options:
${COMMON_FLAG_HELP}
${SERVICE_FLAG_HELP}
  --refresh-all          Also ask the service about finished articles (finds articles
                         deleted or edited in the writing tool)
  --no-refresh           Only the lock file: no request at all
  --concurrency <n>      GET requests at once (default 8)
${REVIEW_FLAG_HELP}

Without ARTICLES_API_KEY and a service URL, status shows the lock file only.
With the review gate on, it lists the articles waiting for review (see docs/review.md).
With a schedule (or publish dates), it shows the calendar: what goes live when.

Each article's age counts from when the article it serves finished (or was last
refreshed), on the clock or ARTICLE_LOADER_NOW; with refreshAfter, "due" marks the ones
\`sync --refresh\` would pay for (see plan for the cost).

Words billed are as recorded: sync records each article's words (the visible words of its
HTML, counted as the service bills them) and its generated images when it finishes or is
fetched. Entries without a record (still pending, or written by an older version) are
estimated from their request, the same figures as \`plan\`, and labelled as estimates.
Earlier articles replaced by a changed request were billed too: counted when recorded.

Examples:
  npx astro-article-loader status
  npx astro-article-loader status --refresh-all
  npx astro-article-loader status --json | jq '.articles[] | select(.status != "finished")'

${EXIT_CODE_HELP}`,
  body: runStatus,
};

type Remote = { status: string; statusDetail: string; progress: number; updatedAt: number } | { error: { code: string; message: string } } | null;

/** The request an entry was created from, when the lock records it (or the manifest's, when its hash matches). */
function estimateOf(entry: LockEntry, slug: string, manifest: Manifest | undefined): number | null {
  const candidates = [entry.request, manifest?.specs.find((spec) => spec.slug === slug)?.request];
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    const parsed = articleRequestSchema.safeParse(candidate);
    if (parsed.success && requestHash(parsed.data) === entry.hash) return estimateWords(parsed.data).words;
  }
  return null;
}

/** Client errors that say the whole configuration is wrong, not one article. */
const FATAL_CODES = new Set(['unauthorized', 'plan_required', 'insufficient_credits']);

function remoteText(remote: Remote): string {
  if (remote === null) return '—';
  if ('error' in remote) return `${remote.error.code}: ${remote.error.message}`;
  const percent = remote.status === 'finished' ? '' : ` ${Math.floor(remote.progress * 100)}%`;
  return `${remote.status}${percent}${remote.statusDetail === '' || remote.status === 'finished' ? '' : ` ${remote.statusDetail}`}`;
}

async function runStatus({ flags, output, io }: CommandContext): Promise<ExitCode> {
  const { manifest, lockFile } = await openLockProject(io.cwd, flags);
  const state = await readLockState(lockFile);
  const slugs = Object.keys(state.lock.articles).sort();
  const inManifest = manifest === undefined ? undefined : new Set(manifest.specs.map((spec) => spec.slug));
  const refresh = refreshMode(flags);
  const targets = refresh === 'none' ? [] : refreshTargets(state.lock, slugs, refresh === 'all');
  const skippedRefresh = targets.length > 0 && !serviceConfigured(io.env, flags);
  const remotes = targets.length > 0 && !skippedRefresh ? await refreshRemotes(state.lock, targets, { flags, output, io }) : new Map<string, Remote>();
  // The quality findings `check` reports (the manifest's settings), counted per article: reads the cache only.
  const findings = manifest === undefined ? new Map() : await currentFindings({ manifest, lockFile, cacheDir: state.cacheDir }, manifestQuality(manifest));
  const edits = await editedReport(state.lockFile, state.lock);
  const now = currentTime(io.env);
  const ageOf = agesOf(manifest, state.lock, new Set(edits.edited), now);
  const rows = slugs.map((slug) => ({ ...statusRow(slug, state.lock.articles[slug]!, { manifest, inManifest, remotes }), age: ageOf(slug), quality: qualityCounts(findings.get(slug)) }));
  const billed = billedWords(rows, state.lock);
  const notInLock = manifest === undefined ? [] : manifest.specs.map((spec) => spec.slug).filter((slug) => state.lock.articles[slug] === undefined);
  const review = reviewReport(state.lock, edits.edited, manifest?.specs.map((spec) => spec.slug), reviewRequired(flags, manifest));
  const calendar = manifest === undefined ? { rows: [], offSchedule: [] } : calendarReport(manifest, state.lock, now);

  if (output.json) {
    output.document({
      schemaVersion: 1,
      command: 'status',
      exitCode: EXIT_CODES.ok,
      manifest: manifest?.file ?? null,
      lockFile: state.lockFile,
      cacheDir: state.cacheDir,
      refreshed: skippedRefresh ? 'none' : refresh,
      articles: rows,
      notInLock,
      edited: edits.edited,
      editedBehind: edits.behind,
      review,
      calendar,
      totals: statusTotals(rows, remotes.size, billed),
    });
    return EXIT_CODES.ok;
  }

  const { style } = output;
  const count = (status: LockEntry['status']): number => countOf(rows, status);
  const summary = [`${count('finished')} finished`, count('pending') > 0 ? `${count('pending')} pending` : '', count('failed') > 0 ? `${count('failed')} failed` : '', count('unknown') > 0 ? `${count('unknown')} unknown` : '']
    .filter((p) => p !== '')
    .join(', ');
  output.out(`${style.bold(shownPath(io.cwd, state.lockFile))}: ${plural(rows.length, 'article')}${rows.length > 0 ? ` (${summary})` : ''}${remotes.size > 0 ? `; ${remotes.size} refreshed from the service` : ''}.`);
  if (rows.length > 0) printStatusTable(output, io, rows);
  output.out();
  printBilledWords(output, billed);
  printStatusNotes(output, rows, notInLock);
  for (const line of editedLines(edits, style, io.cwd)) output.out(line);
  for (const line of reviewLines(review, style)) output.out(line);
  for (const line of calendarLines(calendar, style)) output.out(line);
  if (skippedRefresh) {
    output.err(
      output.errStyle.yellow(`Not refreshed from the service (${plural(targets.length, 'unfinished article')}): set ARTICLES_API_URL and ARTICLES_API_KEY, or run \`astro-article-loader emulator\` for local testing.`),
    );
  }
  return EXIT_CODES.ok;
}

/** What status asks the service about: nothing, the unfinished articles (the default), or every article. */
function refreshMode(flags: ParsedFlags): 'none' | 'unfinished' | 'all' {
  const all = flags.boolean('refresh-all');
  const none = flags.boolean('no-refresh');
  if (all && none) throw new UsageError('--refresh-all and --no-refresh contradict each other; pass one.');
  return none ? 'none' : all ? 'all' : 'unfinished';
}

/** The entries worth asking the service about: unfinished ones (all with `--refresh-all`) that have an id of the real service. */
function refreshTargets(lock: LockFile, slugs: string[], refreshAll: boolean): string[] {
  return slugs.filter((slug) => {
    const entry = lock.articles[slug]!;
    // The real service does not know the emulator's article ids.
    return entry.articleId !== undefined && entry.emulator !== true && (refreshAll || entry.status !== 'finished');
  });
}

/** One GET per target, all at once within `--concurrency`; an error that says the whole configuration is wrong is thrown after all are done. */
async function refreshRemotes(lock: LockFile, targets: string[], { flags, output, io }: { flags: ParsedFlags; output: Output; io: CommandIo }): Promise<Map<string, Remote>> {
  const remotes = new Map<string, Remote>();
  const connection = await connect(io.env, flags, {
    warn: (message) => output.err(output.errStyle.yellow(message)),
    command: 'status',
    why: 'status refreshes unfinished articles from the service',
    concurrency: flags.wholeNumber('concurrency', 1, 8),
    idempotentCreates: false,
  });
  try {
    let fatal: unknown;
    await Promise.all(
      targets.map(async (slug) => {
        try {
          const status: ArticleStatus = await connection.service.getArticle(lock.articles[slug]!.articleId!);
          remotes.set(slug, { status: status.status, statusDetail: status.statusDetail, progress: status.progress, updatedAt: status.updatedAt });
        } catch (error) {
          if (error instanceof ArticleLoaderError && FATAL_CODES.has(error.code)) fatal ??= error;
          const code = error instanceof ArticleLoaderError ? error.code : 'error';
          remotes.set(slug, { error: { code, message: error instanceof Error ? error.message : String(error) } });
        }
      }),
    );
    if (fatal !== undefined) throw fatal;
  } finally {
    await connection.close();
  }
  return remotes;
}

/** One article of `status --json` (and of the table). */
function statusRow(slug: string, entry: LockEntry, known: { manifest: Manifest | undefined; inManifest: Set<string> | undefined; remotes: Map<string, Remote> }) {
  return {
    slug,
    keyword: entry.keyword,
    inManifest: known.inManifest === undefined ? null : known.inManifest.has(slug),
    status: entry.status,
    articleId: entry.articleId ?? null,
    attempt: entry.attempt,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    finishedAt: entry.finishedAt ?? null,
    error: entry.error ?? null,
    remote: known.remotes.get(slug) ?? null,
    emulator: entry.emulator === true,
    billed: entry.words === undefined ? null : { words: entry.words, images: entry.images ?? 0, imageWords: entry.imageWords ?? 0 },
    estimatedWords: estimateOf(entry, slug, known.manifest),
  };
}

/** Each article's age (`status --json` `age`, the table's age column), or null when it serves nothing or is not in the manifest. */
function agesOf(manifest: Manifest | undefined, lock: LockFile, edited: ReadonlySet<string>, now: Date): (slug: string) => (Omit<ArticleAge, 'slug'> & { age: string }) | null {
  const specs = new Map(manifest?.specs.map((spec) => [spec.slug, spec]));
  return (slug) => {
    const spec = specs.get(slug);
    const age = spec === undefined ? undefined : articleAge(spec, lock.articles[slug], now, edited.has(slug));
    if (age === undefined) return null;
    const { slug: _slug, ...rest } = age;
    return { ...rest, age: formatAge(age.ageMs) };
  };
}

/** An article's error and warning findings, or null when it was not checked (not finished, not in the manifest). */
function qualityCounts(findings: readonly { severity: string }[] | undefined): { errors: number; warnings: number } | null {
  if (findings === undefined) return null;
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  return { errors, warnings: findings.length - errors };
}

type StatusRow = ReturnType<typeof statusRow> & { age: ReturnType<ReturnType<typeof agesOf>>; quality: ReturnType<typeof qualityCounts> };

/** The age column: `45d due`, `12d`, `50d hand edit`, `—` when nothing is served. */
const AGE_NOTE: Record<ArticleAge['state'], string> = { due: ' due', 'hand-edited': ' hand edit', refreshing: ' refreshing', fresh: '', 'no-refresh': '' };

function ageText(row: StatusRow): string {
  return row.age === null ? '—' : `${row.age.age}${AGE_NOTE[row.age.state]}`;
}

function countOf(rows: StatusRow[], status: LockEntry['status']): number {
  return rows.filter((row) => row.status === status).length;
}

/**
 * The words billed so far. Billed: articles the service accepted and did not fail (failed articles
 * are not billed), as recorded when they finished; an estimate only where nothing was recorded;
 * and the earlier articles that a changed request replaced, where recorded.
 */
function billedWords(rows: StatusRow[], lock: LockFile) {
  const billed = rows.filter((row) => row.articleId !== null && billedByService(row) && (row.status === 'finished' || row.status === 'pending'));
  const recorded = billed.filter((row) => row.billed !== null);
  const recordedTotal = recorded.reduce((sum, row) => sum + row.billed!.words + row.billed!.imageWords, 0);
  const recordedImages = recorded.reduce((sum, row) => sum + row.billed!.images, 0);
  const recordedImageWords = recorded.reduce((sum, row) => sum + row.billed!.imageWords, 0);
  const estimated = billed.filter((row) => row.billed === null && row.estimatedWords !== null);
  const estimatedTotal = estimated.reduce((sum, row) => sum + row.estimatedWords!, 0);
  const notCounted = billed.length - recorded.length - estimated.length;
  const earlier = rows
    .map((row) => lock.articles[row.slug]!.previous)
    .filter((previous): previous is NonNullable<LockEntry['previous']> => previous !== undefined && billedByService(previous));
  const earlierRecorded = earlier.map((previous) => recordedWords(previous)).filter((words) => words !== undefined);
  const earlierWords = earlierRecorded.reduce((sum, words) => sum + words, 0);
  const billedTotal = recordedTotal + estimatedTotal + earlierWords;
  return { billed, recorded, recordedTotal, recordedImages, recordedImageWords, estimated, estimatedTotal, notCounted, earlier, earlierRecorded, earlierWords, billedTotal };
}

type BilledWords = ReturnType<typeof billedWords>;

/** The `totals` of `status --json`. */
function statusTotals(rows: StatusRow[], refreshed: number, words: BilledWords): Record<string, unknown> {
  const count = (status: LockEntry['status']): number => countOf(rows, status);
  return {
    entries: rows.length,
    finished: count('finished'),
    pending: count('pending'),
    failed: count('failed'),
    unknown: count('unknown'),
    orphans: rows.filter((row) => row.inManifest === false).length,
    emulator: rows.filter((row) => row.emulator).length,
    refreshed,
    billedWords: {
      words: words.billedTotal,
      articles: words.billed.length,
      recorded: { words: words.recordedTotal, articles: words.recorded.length, images: words.recordedImages, imageWords: words.recordedImageWords },
      estimated: { words: words.estimatedTotal, articles: words.estimated.length },
      notCounted: words.notCounted,
      earlierArticles: { words: words.earlierWords, recorded: words.earlierRecorded.length, notCounted: words.earlier.length - words.earlierRecorded.length },
    },
  };
}

/** One line per article: slug, lock status, what the service says, words billed. */
function printStatusTable(output: Output, io: CommandIo, rows: StatusRow[]): void {
  const { style } = output;
  const slugWidth = Math.min(40, Math.max(4, ...rows.map((row) => row.slug.length + (row.inManifest === false ? 9 : 0))));
  const width = Math.max(60, (io.stdout.columns ?? 120) - 1);
  const remoteTexts = rows.map((row) =>
    row.emulator ? 'offline placeholder (emulator, not paid)' : row.remote === null && row.error !== null ? `${row.error.code}: ${row.error.message}` : remoteText(row.remote),
  );
  const remoteWidth = Math.max(7, Math.min(width - slugWidth - 2 - 10 - 2 - 10 - 4 - 20, Math.max(...remoteTexts.map((t) => t.length))));
  output.out();
  output.out(style.dim(`  ${'slug'.padEnd(slugWidth)}  ${'lock'.padEnd(10)}  ${'service'.padEnd(remoteWidth)}  ${'words'.padStart(8)}  ${'age'.padEnd(14)}  quality`));
  for (const [index, row] of rows.entries()) {
    const name = row.inManifest === false ? `${row.slug} ${style.yellow('(orphan)')}` : row.slug;
    const namePad = ' '.repeat(Math.max(0, slugWidth - row.slug.length - (row.inManifest === false ? 9 : 0)));
    const tone = row.status === 'finished' ? style.green : row.status === 'pending' ? style.cyan : style.red;
    const remote = remoteTexts[index]!;
    const words = !billedByService(row) ? '—' : row.billed !== null ? formatCount(row.billed.words + row.billed.imageWords) : row.estimatedWords === null ? '?' : `~${formatCount(row.estimatedWords)}`;
    const quality = row.quality === null ? '—' : row.quality.errors + row.quality.warnings === 0 ? 'clean' : [row.quality.errors > 0 ? style.red(`${row.quality.errors} error${row.quality.errors === 1 ? '' : 's'}`) : '', row.quality.warnings > 0 ? `${row.quality.warnings} warning${row.quality.warnings === 1 ? '' : 's'}` : ''].filter((p) => p !== '').join(', ');
    const age = ageText(row).padEnd(14);
    output.out(`  ${name}${namePad}  ${tone(row.status.padEnd(10))}  ${fitWidth(remote, remoteWidth).padEnd(remoteWidth)}  ${words.padStart(8)}  ${row.age?.state === 'due' ? style.yellow(age) : age}  ${quality}`);
  }
}

function printBilledWords(output: Output, words: BilledWords): void {
  const { recorded, estimated, earlier, earlierRecorded, notCounted } = words;
  const parts = [
    recorded.length > 0
      ? `${formatCount(words.recordedTotal)} as recorded for ${plural(recorded.length, 'article')}${words.recordedImages > 0 ? ` (${formatCount(words.recordedImageWords)} of them for ${plural(words.recordedImages, 'image')})` : ''}`
      : '',
    estimated.length > 0 ? `~${formatCount(words.estimatedTotal)} estimated for ${plural(estimated.length, 'article')} without a record (pending, or synced by an older version)` : '',
    earlierRecorded.length > 0 ? `${formatCount(words.earlierWords)} as recorded for ${plural(earlierRecorded.length, 'earlier article')} replaced by a changed request` : '',
  ].filter((part) => part !== '');
  const uncounted = [
    notCounted > 0 ? `${plural(notCounted, 'article')} without a record or a recorded request` : '',
    earlier.length > earlierRecorded.length ? `${plural(earlier.length - earlierRecorded.length, 'earlier article')} without a record` : '',
  ].filter((part) => part !== '');
  output.out(
    `${output.style.bold('Words billed so far:')} ${estimated.length > 0 ? '~' : ''}${formatCount(words.billedTotal)}` +
      `${parts.length > 0 ? `: ${parts.join('; ')}` : ''}${uncounted.length > 0 ? `. Not counted: ${uncounted.join(', ')}` : ''}.`,
  );
}

/** What to do next: pending articles already finished, offline placeholders, unknown creates, manifest entries not in the lock file. */
function printStatusNotes(output: Output, rows: StatusRow[], notInLock: string[]): void {
  const finishedRemotely = rows.filter((row) => row.status === 'pending' && row.remote !== null && 'status' in row.remote && row.remote.status === 'finished').length;
  if (finishedRemotely > 0) output.out(`${plural(finishedRemotely, 'pending article')} finished on the service: \`astro-article-loader sync\` records and caches ${finishedRemotely === 1 ? 'it' : 'them'} (free).`);
  // Recorded failed because the service once answered 404 for it, and the service knows it again: attaching it costs nothing, where --retry-failed pays again.
  const foundAgain = rows.filter((row) => row.status === 'failed' && row.error?.code === 'not_found' && row.remote !== null && 'status' in row.remote && row.remote.status !== 'failed');
  for (const row of foundAgain) output.out(`${row.slug}: recorded failed after the service answered 404, but the service knows its article again: \`astro-article-loader adopt ${row.slug} ${row.articleId}\` attaches it (free).`);
  const placeholders = rows.filter((row) => row.emulator).length;
  if (placeholders > 0) {
    output.out(
      `${plural(placeholders, 'entry', 'entries')} ${placeholders === 1 ? 'is' : 'are'} written offline by the embedded emulator (placeholder text or your own model, not billed): ` +
        'a sync against the real service creates them again (paid, within the budget).',
    );
  }
  const unknown = rows.filter((row) => row.status === 'unknown' && row.inManifest !== false).map((row) => ({ slug: row.slug, keyword: row.keyword }));
  for (const line of unknownCreatesLines(unknown)) output.out(output.style.yellow(line));
  if (notInLock.length > 0) output.out(`${plural(notInLock.length, 'manifest entry', 'manifest entries')} not in the lock file yet: \`astro-article-loader plan\` shows what creating them costs.`);
}
