// The errors of the review gate: an approval asked for an article that is not there, or that has nothing to approve.
import { ArticleLoaderError } from '../errors.js';

export type ReviewErrorCode = 'review_unknown_slug' | 'review_no_output';

/** Refused before anything is written: the lock file is left byte-identical. `slugs` are the ones refused. */
export class ReviewError extends ArticleLoaderError {
  declare readonly code: ReviewErrorCode;
  readonly slugs: readonly string[];

  constructor(code: ReviewErrorCode, message: string, slugs: readonly string[]) {
    super(code, message);
    this.slugs = slugs;
  }
}
