// The error of a command called wrongly or not configured: printed without a stack, exit code 2.
import { ArticleLoaderError } from '../errors.js';

/**
 * - `usage`: an unknown flag, a bad value, a flag that must not exist (`--api-key`).
 * - `manifest_not_found`: no manifest given and none in the working directory.
 * - `manifest_ambiguous`: no manifest given and more than one in the working directory.
 * - `service_not_configured`: the command needs the article service and the environment does not say where it is.
 */
export type UsageErrorCode = 'usage' | 'manifest_not_found' | 'manifest_ambiguous' | 'service_not_configured';

export class UsageError extends ArticleLoaderError {
  declare readonly code: UsageErrorCode;

  constructor(message: string, code: UsageErrorCode = 'usage') {
    super(code, message);
  }
}
