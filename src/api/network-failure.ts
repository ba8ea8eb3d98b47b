// A transport error as an attempt failure: whether the request can have left this machine, a readable detail, and a copy safe to keep.
import type { AttemptFailure } from './attempt-failure.js';

/**
 * Errors whose meaning is "no byte of the request left this machine", so even a create may be
 * repeated: no connection (refused, no route, no such host, connect timeout), or a TLS handshake
 * that failed (the request is only sent once the handshake succeeded).
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** The failure a thrown transport error stands for; its text redacted, its cause a sanitized copy. */
export function networkFailure(error: unknown, redact: (text: string) => string): AttemptFailure {
  const code = errorCode(error);
  const cause = sanitizedError(error, redact);
  const maybeSent = !(code !== undefined && NOT_SENT_CODES.has(code));
  return { kind: 'network', maybeSent, detail: describeNetworkError(code, cause.message), cause };
}

function describeNetworkError(code: string | undefined, message: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (ECONNREFUSED)';
    case 'ENOTFOUND':
      return 'the host name could not be resolved (ENOTFOUND)';
    case 'EAI_AGAIN':
      return 'the host name lookup failed for now (EAI_AGAIN)';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connecting timed out (UND_ERR_CONNECT_TIMEOUT)';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return `the connection was closed before the answer was complete (${code}: ${message})`;
    default:
      return code === undefined ? message : `${code}: ${message}`;
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errors, cause } = error as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string') return code;
  // Happy-eyeballs connects fail with an AggregateError of one error per address.
  if (Array.isArray(errors) && errors.length > 0) return errorCode(errors[0]);
  return cause === undefined ? undefined : errorCode(cause);
}

/**
 * A copy of a transport error holding only name, code and (redacted) message and stack: undici
 * errors may carry sockets or request details that must not travel inside our errors.
 */
function sanitizedError(error: unknown, redact: (text: string) => string, depth = 0): Error {
  const source = error instanceof Error ? error : undefined;
  const errors: unknown = source && (source as { errors?: unknown }).errors;
  const nested: unknown[] = Array.isArray(errors) ? errors : [];
  const message = [source ? source.message : String(error), ...nested.map((e) => (e instanceof Error ? e.message : String(e)))]
    .filter((part) => part !== '')
    .join('; ');
  const innerCause = source?.cause;
  const copy = new Error(redact(message), innerCause !== undefined && depth < 3 ? { cause: sanitizedError(innerCause, redact, depth + 1) } : undefined);
  copy.name = source?.name ?? 'Error';
  const code = errorCode(error);
  if (code !== undefined) Object.defineProperty(copy, 'code', { value: code, enumerable: true });
  copy.stack = redact(source?.stack ?? `${copy.name}: ${copy.message}`);
  return copy;
}
