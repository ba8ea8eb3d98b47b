// The lines a collection's session writes to Astro's log around the sync's own (sync-report.ts), worded in one place.
import { plural } from '../lang/count-text.js';
import { formatManifestProblem, type Manifest } from '../manifest/index.js';
import { notReadyAdvice, type LockEntryError, type NotReadyArticle } from '../sync/index.js';
import { embeddedWriterLabel } from '../service/embedded-emulator.js';
import { API_KEY_ENV, API_URL_ENV, OFFLINE_DOWNLOADS, type ResolvedLoaderOptions } from './options.js';
import type { RestRouteAdvice } from './rest-route.js';
import { escapeRegExp } from '../lang/escape.js';
import { shortPath, type LoaderLogger } from './sync-report.js';
import type { FontNeed } from '../cover/card-fonts.js';
import type { CountedFindings } from '../quality/finding.js';

/** What the store writer did with the entries of one pass, for its closing lines. */
export interface EntryCounts {
  /** Left as they were: their digest was unchanged. */
  unchanged: number;
  /** Processed by the pipeline. */
  rendered: number;
  /** Taken already processed from the committed cache. */
  reused: number;
  /** Placeholder entries written (a write that changed the store). */
  placeholders: number;
  /** Cover cards drawn (not in the cache yet), and taken from the cache. */
  cardsDrawn: number;
  cardsCached: number;
  /** Font package ('' for the scripts no package sets) → what a card lacked and the articles whose cards left those letters out. */
  cardsLacking: Map<string, { need: FontNeed; slugs: string[] }>;
}

export function emptyCounts(): EntryCounts {
  return { unchanged: 0, rendered: 0, reused: 0, placeholders: 0, cardsDrawn: 0, cardsCached: 0, cardsLacking: new Map() };
}

export class CollectionLog {
  /** Astro's logger, naming the collection when the project has several (the sync reporter writes to it too). */
  readonly logger: LoaderLogger;
  readonly #root: string;
  #manifestWarnings = '';
  #qualityDifferSaid = false;
  #reviewDifferSaid = false;
  #restRouteSaid = false;

  constructor(logger: LoaderLogger, root: string) {
    this.logger = logger;
    this.#root = root;
  }

  /** The manifest's warnings, once for each version of them (a dev server reads it on every pass). */
  manifestWarnings(manifest: Manifest): void {
    const warnings = manifest.warnings.map(formatManifestProblem);
    if (warnings.join('\n') !== this.#manifestWarnings) for (const warning of warnings) this.logger.warn(warning);
    this.#manifestWarnings = warnings.join('\n');
  }

  /** The embedded emulator started: what writes the articles, and where its state and images go. */
  offline(url: string, options: ResolvedLoaderOptions, stateFile: string): void {
    const images = options.downloadImages === undefined ? ` Its images are saved into ${OFFLINE_DOWNLOADS.dir}/ (served at ${OFFLINE_DOWNLOADS.publicPath}), since it is gone after the build; commit them with the cache.` : '';
    this.logger.info(
      `offline mode: neither an API key nor a service address is set (apiKey/baseUrl, ${API_KEY_ENV}/${API_URL_ENV}), ` +
        `so the embedded emulator at ${url} writes the articles (${embeddedWriterLabel(options.service.mode === 'offline' ? options.service : {})}, free). ` +
        `Its state is kept in ${shortPath(stateFile, this.#root)}, so a stopped build resumes.${images}`,
    );
  }

  emulatorNotNeeded(): void {
    this.logger.debug('offline mode: every article is in the cache, so the embedded emulator was not started');
  }

  /** Dev: the creates refused (frozen, over budget), shown as failed placeholders. */
  blocked(error: LockEntryError, slugs: readonly string[]): void {
    this.logger.error(`${error.message}: ${slugs.join(', ')}`);
  }

  unpublished(slugs: ReadonlySet<string>): void {
    if (slugs.size === 0) return;
    this.logger.info(`${plural(slugs.size, 'draft or future-dated article')} left out of the build (${[...slugs].join(', ')}); the loader option drafts: true includes them`);
  }

  /** Scheduled dates given by this pass and recorded in the lock file: they stay, so commit it. */
  scheduleRecorded(count: number, lockFile: string): void {
    this.logger.info(`${plural(count, 'scheduled date')} given and recorded in ${shortPath(lockFile, this.#root)}; commit it, so every build keeps them`);
  }

  /** A frozen build's scheduled dates that no lock file holds: proposed from now, so they move until recorded. */
  scheduleProposed(slugs: readonly string[]): void {
    this.logger.warn(
      `${plural(slugs.length, 'scheduled date is', 'scheduled dates are')} not in the lock file (${slugs.join(', ')}); frozen, this build only proposes them from now, ` +
        'so they move with every build. Record them with `astro-article-loader sync` (or a local build) and commit the lock file.',
    );
  }

  /** A build with onFailure "skip": the articles left out, and what to do about them. */
  leftOut(failures: NotReadyArticle[]): void {
    this.logger.warn(
      `${plural(failures.length, 'article was', 'articles were')} left out of the site (onFailure: "skip"): ${failures.map((f) => f.slug).join(', ')}. ` +
        `${notReadyAdvice(failures, 'above')} Set onFailure: "fail" to fail the build instead.`,
    );
  }

  notProcessed(slug: string, message: string): void {
    this.logger.warn(`"${slug}" could not be processed: ${message}`);
  }

  /** What the pipeline noticed in one article (a dropped element, a link it could not place). */
  articleWarnings(slug: string, warnings: readonly string[]): void {
    for (const warning of warnings) this.logger.warn(`"${slug}": ${warning}`);
  }

  /** How many times this process has parsed the collection's manifest and lock file (a debug line: a build parses each once). */
  parses(manifest: number | undefined, lock: number): void {
    this.logger.debug(`parses in this process: ${manifest === undefined ? 'inline manifest' : `manifest ${manifest}`}, lock file ${lock}`);
  }

  /** The closing lines of a pass: what was rendered, reused and left as it was. */
  entries(counts: EntryCounts): void {
    const { unchanged, rendered, reused, placeholders } = counts;
    const line = `${rendered} rendered, ${reused} from the processed cache, ${unchanged} unchanged (digest), ${placeholders} placeholders`;
    const fromCache = reused > 0 ? `, ${reused} taken already processed from the cache` : '';
    if (rendered + reused > 0) this.logger.info(`${plural(rendered, 'article')} rendered${fromCache} (${unchanged} unchanged)`);
    this.logger.debug(`entries: ${line}`);
    const { cardsDrawn, cardsCached } = counts;
    // Said whenever entries needed cards, so a warm build shows that it drew none.
    if (cardsDrawn + cardsCached > 0) this.logger.info(`cover cards: ${cardsDrawn} drawn, ${cardsCached} from the cache`);
    for (const { need, slugs } of counts.cardsLacking.values()) this.cardsLackFont(need, slugs);
  }

  /** One warning per missing font and pass, naming its articles: their cards leave those letters out until the font is installed. */
  cardsLackFont(need: FontNeed, slugs: readonly string[]): void {
    const named = slugs.slice(0, 5).map((slug) => `"${slug}"`).join(', ') + (slugs.length > 5 ? ` and ${slugs.length - 5} more` : '');
    if (need.package === undefined) {
      const codePoint = `U+${need.example.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      this.logger.warn(`cover cards of ${named}: no font for letters such as "${need.example}" (${codePoint}), so the card leaves them out; the loader knows no font package for their script`);
      return;
    }
    this.logger.warn(`cover cards of ${named}: no font for ${need.script} (such as "${need.example}"), so the card leaves those letters out; run \`npm install ${need.package}\`, and the next build draws ${slugs.length === 1 ? 'it' : 'them'} again`);
  }

  /** An article's cover card could not be drawn (its entry has no cover); the build goes on. */
  cardFailed(slug: string, message: string): void {
    this.logger.warn(`"${slug}": its cover card could not be drawn (${message}); entry.data.cover is null. Set the loader option coverCard: false to stop drawing cards`);
  }

  /** The loader option `quality` differs from the manifest's `quality:`: said once, since `check` and `status` read the manifest's. */
  qualitySettingsDiffer(file: string): void {
    if (this.#qualityDifferSaid) return;
    this.#qualityDifferSaid = true;
    this.logger.warn(
      `the loader option \`quality\` differs from \`quality:\` in ${shortPath(file, this.#root)}; this build uses the loader option, but \`check\` and \`status\` read the manifest's: keep the settings in the manifest`,
    );
  }

  /** Whether the rest route's warning was given: a session says it once (a build has one pass per collection). */
  get restRouteSaid(): boolean {
    return this.#restRouteSaid;
  }

  /**
   * The ids have folders and no page takes them whole: a warning naming the page Astro will stop on and its new name, or, when
   * no page the loader can read takes them, an info line saying a page needs a rest route; and the guide.
   */
  restRoute(advice: RestRouteAdvice, collection: string, example: string): void {
    if (this.#restRouteSaid) return;
    this.#restRouteSaid = true;
    const guide = 'see "Several languages" in the README of astro-article-loader and its guide docs/languages-routing.md';
    if (advice.kind === 'one-segment') {
      const param = escapeRegExp(advice.param);
      const renamed = advice.file.replace(new RegExp(`\\[${param}\\](?!.*\\[${param}\\])`), `[...${advice.param}]`);
      this.logger.warn(
        `${shortPath(advice.file, this.#root)} reads the collection "${collection}", whose ids have folders (${example}), but [${advice.param}] takes one path segment: ` +
          `Astro will stop with "Missing parameter: ${advice.param}". Rename the page ${shortPath(renamed, this.#root)}: a rest parameter takes the whole id; ${guide}`,
      );
    } else {
      // Not a warning: a page may take the ids through a helper the loader cannot see (the playground's do), and be right.
      this.logger.info(
        `the ids of the collection "${collection}" have folders (${example}): a page that takes them whole needs a rest parameter, such as src/pages/articles/[...slug].astro, ` +
          `where [slug].astro makes Astro stop with "Missing parameter: slug"; ${guide}`,
      );
    }
  }

  /** The loader option `review` differs from the manifest's `review:`: said once, since the CLI reads the manifest's. */
  reviewSettingDiffers(option: boolean, fromManifest: boolean, file: string): void {
    if (this.#reviewDifferSaid) return;
    this.#reviewDifferSaid = true;
    this.logger.warn(
      `the loader option review: ${option} wins for this build over review: ${fromManifest} in ${shortPath(file, this.#root)}; ` +
        '`check`, `plan`, `status` and `approve` read the manifest\'s. Set it in the manifest only, so the build and the CLI agree.',
    );
  }

  /**
   * The pass's findings: error findings on every build (what may go live unseen), warnings only when the pass wrote
   * entries (a build where nothing happened says nothing; the build summary still counts them).
   */
  quality({ all, errors, articles }: CountedFindings, wroteEntries: boolean): void {
    if (all.length === 0) return;
    const line = `quality: ${plural(errors.length, 'error')}, ${plural(all.length - errors.length, 'warning')} in ${plural(articles, 'article')}; \`astro-article-loader check\` lists them`;
    if (errors.length > 0) this.logger.warn(line);
    else if (wroteEntries) this.logger.info(line);
    else this.logger.debug(line);
    for (const finding of errors) this.logger.warn(`"${finding.slug}": ${finding.code}: ${finding.message}`);
  }

  /** Dev: a watched file changed and a pass starts. */
  changed(file: string): void {
    this.logger.info(`${shortPath(file, this.#root)} changed; syncing`);
  }

  /** Dev: an article the background wait saw finish is on its page. */
  ready(slug: string): void {
    this.logger.info(`"${slug}" is ready`);
  }

  /** Dev: one step of the background wait (a placeholder, a finished article) failed; the wait goes on. */
  waitStepFailed(message: string): void {
    this.logger.warn(message);
  }

  waitStopped(message: string): void {
    this.logger.error(`waiting for articles stopped: ${message}`);
  }

  /** Dev: a pass after a change failed; the entries stay as they were. */
  passFailed(message: string): void {
    this.logger.error(message);
  }
}
