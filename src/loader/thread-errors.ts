// An error as it crosses from a worker thread (the pipeline's, the quality checks') to the loader's: sent as its name, code and message, revived as the class the loader tells apart.
import { ArticleLoaderError } from '../errors.js';
import { InternalLinksError, PipelineOptionError } from '../pipeline/errors.js';

/** An error as a worker posts it (an Error itself would lose its class and code on the way). */
export interface SentError {
  name: string;
  code: string;
  message: string;
}

/** What a worker sends of an error it caught; `error` when it has no code, the code a failed article gets either way (errorOf, sync-entries.ts). */
export function sentError(error: unknown): SentError {
  const { name, code, message } = (error ?? {}) as { name?: unknown; code?: unknown; message?: unknown };
  return { name: typeof name === 'string' ? name : 'Error', code: typeof code === 'string' ? code : 'error', message: typeof message === 'string' ? message : String(error) };
}

/** The error a worker sent: a setup error as its class (it stops the build), any other as the article's failure, with its name, code and message. */
export function revivedError(sent: SentError): Error {
  if (sent.name === 'PipelineOptionError') return new PipelineOptionError(sent.message);
  if (sent.name === 'InternalLinksError') return new InternalLinksError(sent.code, sent.message);
  return Object.assign(new ArticleLoaderError(sent.code, sent.message), { name: sent.name });
}
