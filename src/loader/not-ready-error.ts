// The error a build throws when articles are not ready and onFailure is "fail": its own module, so the package root can export it without loading the build pass.
import { ArticleLoaderError } from '../errors.js';
import { plural } from '../lang/count-text.js';
import { notReadyMessage, type NotReadyArticle } from '../sync/not-ready.js';

/** Articles that could not be served while `onFailure` is `'fail'` (their unknown creates were listed by the run's log just before). */
export class ArticlesNotReadyError extends ArticleLoaderError {
  readonly failures: NotReadyArticle[];

  constructor(failures: NotReadyArticle[]) {
    const headline = `${plural(failures.length, 'article is', 'articles are')} not ready, and onFailure is "fail":`;
    super('articles_not_ready', notReadyMessage(failures, headline, 'Set onFailure: "skip" to build the site without them.', 'above'));
    this.failures = failures;
  }
}
