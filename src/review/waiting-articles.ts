// The articles that wait for review: each one's slug, title and the output a person is asked to approve, for the CLI and the dev panel.
import { editsDirFor, listEdits, readLockState, servedOf, type LockFile } from '../sync/index.js';
import type { ReviewProject } from './approvals.js';
import { reviewState } from './review-rule.js';
import type { ReviewState } from './review-state.js';

/** One article and its review state (articles with no output yet have none: there is nothing to review). */
export interface ReviewedArticle {
  slug: string;
  keyword: string;
  state: ReviewState;
  /** The hash of the output it serves (`sha256:…`): what `approve` records. */
  output: string;
}

/** A waiting article as the panel lists it: with the title of its output. */
export interface WaitingArticle extends ReviewedArticle {
  state: 'waiting';
  /** The output's first `<h1>` (else its `<title>`), else the keyword. */
  title: string;
}

/** Every article of the project with an output, in slug order, and its review state. */
export function reviewStates(lock: LockFile, edits: ReadonlySet<string>, slugs?: readonly string[]): ReviewedArticle[] {
  const wanted = slugs === undefined ? Object.keys(lock.articles) : slugs.filter((slug) => lock.articles[slug] !== undefined);
  return [...new Set(wanted)].sort().flatMap((slug) => {
    const entry = lock.articles[slug]!;
    const served = servedOf(entry);
    return served === undefined ? [] : [{ slug, keyword: entry.keyword, state: reviewState(entry, edits.has(slug)), output: served.output }];
  });
}

/** The project's articles and their review states, read from its lock file and edits directory (no lock taken: writes are atomic). */
export async function readReviewStates(project: ReviewProject): Promise<ReviewedArticle[]> {
  const { lock } = await readLockState(project.lockFile);
  return reviewStates(lock, new Set(await listEdits(editsDirFor(project.lockFile))), project.slugs);
}

/** The articles waiting for review, each with its title read from its cached output. */
export async function waitingArticles(project: ReviewProject): Promise<WaitingArticle[]> {
  const state = await readLockState(project.lockFile);
  const articles = reviewStates(state.lock, new Set(await listEdits(editsDirFor(state.lockFile))), project.slugs);
  // The HTML parser only when an article waits: `plan`, `status` and `approve` on a reviewed site start without it.
  const { titleOf } = articles.some((article) => article.state === 'waiting') ? await import('./article-title.js') : { titleOf: () => undefined };
  return Promise.all(
    articles
      .filter((article) => article.state === 'waiting')
      .map(async (article) => {
        const cached = await state.cache.read(article.output);
        return { ...article, state: 'waiting' as const, title: cached === undefined ? article.keyword : (titleOf(cached.html) ?? article.keyword) };
      }),
  );
}
