// The pipeline's errors: a wrong option, and a failed internal-links call the user chose to fail on.

import { ArticleLoaderError } from '../errors.js';

/** A pipeline option is wrong: the message names the option and says what is allowed. */
export class PipelineOptionError extends ArticleLoaderError {
  constructor(message: string) {
    super('invalid_pipeline_option', message);
  }
}

/** The internal-links call failed and `serviceLinks.onError` is `'fail'`. `code` is the cause's code when it has one. */
export class InternalLinksError extends ArticleLoaderError {}
