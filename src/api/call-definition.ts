// One HTTP call of the article client as data: where it goes, what it sends, and how its answer is read.
import type { Dispatcher } from 'undici';
import type { ArticleOperation, AttemptFailure } from './attempt-failure.js';
import type { AttemptOutcome } from './retry-policy.js';

/** Response headers as undici gives them: a repeated header is an array. */
export type IncomingHttpHeaders = Dispatcher.ResponseData['headers'];

/** An answer of the service, read whole: status, headers and body text. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** One HTTP call: where it goes and how its successful answer is read. */
export interface CallDefinition<T> {
  operation: ArticleOperation;
  method: 'GET' | 'POST';
  path: string;
  subject: string;
  body?: string;
  accept: string;
  keyword?: string;
  idempotencyKey?: string;
  read(answer: Answer): AttemptOutcome<T, AttemptFailure>;
}
