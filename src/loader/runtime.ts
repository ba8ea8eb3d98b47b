// The process-wide state every loader instance shares: each collection's session and article queue, and their shutdown.
//
// Astro may evaluate the content config and astro.config in different module graphs, so two copies
// of this module can exist in one process. The state therefore lives on `globalThis` under a
// registered symbol: every copy (and the `articles()` integration) sees the same object. The
// integration reads the queues (toolbar panel, build summary) and ends everything when the dev
// server stops (`shutdownRuntime`), the embedded emulator included.

import { stopEmbeddedEmulator } from '../service/embedded-emulator.js';
import type { ArticleHeading, ArticleImage, ArticleLink } from '../pipeline/article-data.js';
import type { Finding } from '../quality/finding.js';
import type { ArticleEntryConfig } from './entry-schema.js';

/** An entry's details: what `entryData` can put on the entry, read from where the build keeps them. */
export interface ArticleDetails {
  /** The entry id. */
  slug: string;
  /** The quality checks' findings on the article's final HTML, near_duplicate included (`entry.data.quality` counts them); [] for a placeholder. */
  findings: Finding[];
  /** The request, defaults applied, without `integrationId` and `webhookUrl` (what `entry.data.config` was); null when the manifest no longer has the entry. */
  request: ArticleEntryConfig | null;
  /** The body's headings, as `render(entry)` returns them; [] for a placeholder. */
  headings: ArticleHeading[];
  /** Every image of the body; [] for a placeholder. */
  images: ArticleImage[];
  /** Every link of the body, external ones included; [] for a placeholder. */
  links: ArticleLink[];
}

/** One article's state as the loader last saw it. */
export interface QueueArticle {
  slug: string;
  keyword: string;
  /** The page the article is served at (`url(slug)`). */
  url: string;
  /**
   * - `reused`: served from the committed cache, nothing asked of the service.
   * - `queued` / `processing`: being written (`statusDetail`, `progress` 0..1).
   * - `finished`: written or fetched during this server's life.
   * - `failed`: not served; `error` says why.
   * - `unknown`: its create may have been billed but no id came back: off the site until it is
   *   adopted (`astro-article-loader adopt`) or paid for again (`retryUnknown`).
   */
  state: 'reused' | 'queued' | 'processing' | 'finished' | 'failed' | 'unknown';
  statusDetail: string | null;
  progress: number;
  error: { code: string; message: string } | null;
  /**
   * Words billed for it while this process ran, images included (0 when reused): as recorded in the
   * lock file once it finished, the estimate from its request until then. A failed article is refunded.
   */
  wordsBilled: number;
  /** `wordsBilled` is the recorded figure, not the estimate. */
  wordsRecorded: boolean;
  /**
   * What the site does with it besides its state: `draft` and `scheduled` (a future `publishDate`)
   * are shown in dev and left out of a build unless `drafts` is on; `edited` is served from a hand edit.
   */
  marks?: ArticleMark[];
  /** When it goes live, ISO: its `publishDate`, given or from the schedule (see manifest/schedule-calendar.ts); absent when it has none. */
  publishDate?: string;
  /** Its review state (see src/review/): `waiting` is left out of a build with `review: true` until approved. */
  review?: 'approved' | 'edited' | 'waiting' | 'not-required';
  /** The quality checks' findings on its final HTML (see src/quality/). */
  findings?: QueueFinding[];
}

export type ArticleMark = 'draft' | 'scheduled' | 'edited';

/** A quality finding as the toolbar shows it (the shape of src/quality/finding.ts, less the slug). */
export interface QueueFinding {
  code: string;
  severity: 'error' | 'warning';
  message: string;
}

/** What a collection's syncs did and cost while this process ran (the counts of the last sync: reused, failed, pending). */
export interface QueueTotals {
  created: number;
  /** Estimated words of the articles created (from their requests, before they are written). */
  estimatedWords: number;
  /** Words billed, images included, as recorded in the lock file for the articles that finished (the embedded emulator bills nothing). */
  billedWords: number;
  /** Of `billedWords`, the words billed for generated images. */
  imageWords: number;
  /** Paid internal-link requests (one credit each); answers served from the cache cost nothing. */
  linkCredits: number;
  reused: number;
  finished: number;
  failed: number;
  /** Creates whose outcome is unknown, not resolved yet. */
  unknown: number;
  /** Articles this process waited for but did not create (another build, or an earlier run): billed there, not here. */
  waitedFor: number;
  pending: number;
  requests: number;
  waitedMs: number;
}

/** A collection's queue: what the loader knows after each step of a sync, for the dev toolbar and build summaries. */
export interface QueueSnapshot {
  collection: string;
  /** `offline`: the embedded emulator writes the articles. */
  mode: 'offline' | 'remote';
  frozen: boolean;
  budget: number;
  manifest: string;
  lockFile: string;
  cacheDir: string;
  /** A sync (or a dev server's background wait) is running. */
  running: boolean;
  articles: QueueArticle[];
  totals: QueueTotals;
  /** The lock file or cache changed and should be committed. */
  changed: boolean;
  /** The last problem that stopped a sync (over budget, frozen, manifest error), else null. */
  problem: string | null;
  /** The quality checks' findings on the entries of the last pass: counts, and each error finding (the build summary lists them). */
  quality?: { errors: number; warnings: number; articles: number; errorFindings: { slug: string; code: string; message: string }[] };
  /** With the review gate on: the articles a build left out waiting for review, and the approved ones it built with an error finding. */
  review?: { waiting: string[]; approvedWithErrors: string[] };
  updatedAt: number;
}

/** Hears every change of a collection's queue: its new snapshot, or undefined once the collection is gone. */
export type QueueListener = (collection: string, snapshot: QueueSnapshot | undefined) => void;

/** A collection's loader session: its dev watch and background wait end with dispose(). */
export interface RuntimeSession {
  /** The project root (a path) and the collection's name. */
  readonly root: string;
  readonly collection: string;
  /** Its lock file: no two collections of one project may share one. */
  readonly lockFile: string;
  dispose(): Promise<void>;
  /**
   * Dev only, for the toolbar's Regenerate: the estimate for a new article of `slug` and, when
   * `confirm` and neither frozen mode nor the budget forbids it, its create (the session then
   * waits for it). Absent on a session made by an older copy of the loader.
   */
  regenerate?(slug: string, options: { confirm: boolean }): Promise<RegenerationAnswer>;
  /**
   * Dev only: a pass now (after the ones queued), for a change this process made to the lock file
   * outside a pass (the toolbar's Approve): the watch ignores every lock write of this process.
   */
  refresh?(): Promise<void>;
  /**
   * `articleDetails()`: the details of the entry `slug` (findings, request, headings, images, links), undefined when the
   * collection has no such entry. Absent on a session made by an older copy of the loader.
   */
  details?(slug: string): Promise<ArticleDetails | undefined>;
}

/** What the toolbar's Regenerate is told: the estimate, and whether the new article was created. */
export interface RegenerationAnswer {
  slug: string;
  /** Estimated words of the new article (the same estimate as `regenerate --dry-run`). */
  estimatedWords: number;
  /** Written by the embedded emulator: nothing billed. */
  offline: boolean;
  /** Why the create may not be made (frozen mode, over the budget), else null. */
  blocked: string | null;
  /** The new article was created; the current one is served until it is finished. */
  started: boolean;
}

/** The collection of the same project, other than `session`'s, whose lock file is also `session`'s, if any. */
export function sharingLockFile(session: RuntimeSession): RuntimeSession | undefined {
  for (const other of loaderRuntime().sessions.values()) {
    if (other.root === session.root && other.collection !== session.collection && other.lockFile === session.lockFile) return other;
  }
  return undefined;
}

/** One evaluation of a content config: see config-load.ts. */
export interface ConfigLoad {
  /** Loaders it made (articleLoader() calls). */
  loaders: number;
  /** Its loaders whose load() has begun, and the loads still running. */
  started: Set<number>;
  running: number;
  /** The collections loaded (`root#collection`) and their projects' roots. */
  keys: Set<string>;
  roots: Set<string>;
}

export interface LoaderRuntime {
  readonly queues: Map<string, QueueSnapshot>;
  readonly listeners: Set<QueueListener>;
  /**
   * The live session of each collection (by project root and name). An edited content config
   * creates a new loader; its first load() ends the old one's watch and background wait.
   */
  readonly sessions: Map<string, RuntimeSession>;
  /** The latest evaluation of a content config, to tell which collections it still has. */
  configLoad: ConfigLoad | undefined;
  /** The DEBUG warning (the env dump shows the key) was logged: once per process is enough. */
  debugEnvWarned?: boolean;
}

const KEY = Symbol.for('astro-article-loader.runtime');

/** The one runtime of this process. */
export function loaderRuntime(): LoaderRuntime {
  const holder = globalThis as { [KEY]?: LoaderRuntime };
  holder[KEY] ??= { queues: new Map(), listeners: new Set(), sessions: new Map(), configLoad: undefined };
  // A runtime made by an older copy of this module in the same process lacks the newer members.
  const runtime = holder[KEY] as { sessions?: LoaderRuntime['sessions'] };
  runtime.sessions ??= new Map();
  return holder[KEY];
}

/**
 * Ends what the loaders keep running in this process: every session's dev watch and background
 * wait (no poll is sent after this resolves), then the embedded emulator, whoever keeps it. The
 * queues are forgotten, so a later build in the same process reports only its own. Called when
 * the dev server stops (`articles()` does it on `astro:server:done`); the next load() starts afresh.
 */
export async function shutdownRuntime(): Promise<void> {
  const runtime = loaderRuntime();
  const sessions = [...runtime.sessions.values()];
  runtime.sessions.clear();
  await Promise.allSettled(sessions.map((session) => session.dispose()));
  // Its state file keeps every article, ledger entry and idempotency key for the next start.
  await stopEmbeddedEmulator();
  runtime.configLoad = undefined;
  for (const collection of [...runtime.queues.keys()]) forgetQueue(collection);
}

function tell(runtime: LoaderRuntime, collection: string, snapshot: QueueSnapshot | undefined): void {
  for (const listener of runtime.listeners) {
    try {
      listener(collection, snapshot);
    } catch {
      // A display must not break a build.
    }
  }
}

/** Records a collection's queue and tells every listener. A listener's error never reaches the loader. */
export function publishQueue(snapshot: QueueSnapshot): void {
  const runtime = loaderRuntime();
  runtime.queues.set(snapshot.collection, snapshot);
  tell(runtime, snapshot.collection, snapshot);
}

/** Drops a collection's queue (it left the content config, or the dev server stopped) and tells every listener. */
export function forgetQueue(collection: string): void {
  const runtime = loaderRuntime();
  if (runtime.queues.delete(collection)) tell(runtime, collection, undefined);
}

/** Calls `listener` with every queue change (and at once with the queues known so far); returns the unsubscribe function. */
export function subscribeQueues(listener: QueueListener): () => void {
  const runtime = loaderRuntime();
  runtime.listeners.add(listener);
  for (const snapshot of runtime.queues.values()) listener(snapshot.collection, snapshot);
  return () => runtime.listeners.delete(listener);
}
