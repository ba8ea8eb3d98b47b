// The base error class: every error this package throws is an ArticleLoaderError with a stable code.

/**
 * An error a site owner can act on: `message` says what happened, where
 * (file, entry, field) and what to do. `code` is stable and machine-readable.
 *
 * Never put a secret (API key, webhook secret) into a message or a property.
 */
export class ArticleLoaderError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}
