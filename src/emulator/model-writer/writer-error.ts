// Why the model writer could not write an article: a code and a message that says what happened and what to do.

export type WriterErrorCode =
  /** Connection refused, reset or closed mid-answer (retried first). */
  | 'writer_unreachable'
  /** A 5xx or 429 (retried first). */
  | 'writer_server_error'
  /** A 4xx other than a context-length error: wrong path, model, key or request. */
  | 'writer_rejected'
  /** The prompt and the answer do not fit the model's context window. */
  | 'writer_context_length'
  /** No bytes for `timeoutMs`. */
  | 'writer_timeout'
  /** An answer with no text. */
  | 'writer_empty_answer'
  /** The answer hit the token limit (`finish_reason: "length"`) or the stream ended early. */
  | 'writer_answer_cut_off'
  /** An answer that is not the protocol's shape, or an outline with no sections. */
  | 'writer_bad_answer';

/** A failed call to the writer; the article it was writing ends `failed` with this code and message. Never holds the key. */
export class ModelWriterError extends Error {
  readonly code: WriterErrorCode;
  /** Whether trying the same call again may succeed (refused connection, 5xx, 429). */
  readonly retryable: boolean;

  constructor(code: WriterErrorCode, message: string, retryable = false) {
    super(message);
    this.name = 'ModelWriterError';
    this.code = code;
    this.retryable = retryable;
  }
}

/** The message in an error body (`{ error: { message } }`, `{ error: "…" }`, `{ message }` or text), short. */
export function serverMessage(body: string): string {
  let text = body;
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown; detail?: unknown };
    const inner = parsed.error;
    const message = typeof inner === 'string' ? inner : typeof inner === 'object' && inner !== null ? (inner as { message?: unknown }).message : (parsed.message ?? parsed.detail);
    if (typeof message === 'string') text = message;
  } catch {
    // Not JSON: the text as it came.
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}…` : flat;
}
