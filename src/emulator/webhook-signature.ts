// Standard Webhooks signatures: signing deliveries and verifying them on the receiving side.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ArticleLoaderError } from '../errors.js';

const SECRET_PREFIX = 'whsec_';
/** Default accepted clock difference between sender and receiver (Standard Webhooks: 5 minutes). */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

export type WebhookVerificationCode =
  | 'webhook_missing_headers'
  | 'webhook_invalid_secret'
  | 'webhook_invalid_timestamp'
  | 'webhook_timestamp_out_of_tolerance'
  | 'webhook_invalid_signature';

/** A webhook that failed verification. The message never contains the secret or a signature. */
export class WebhookVerificationError extends ArticleLoaderError {
  declare readonly code: WebhookVerificationCode;

  constructor(code: WebhookVerificationCode, message: string) {
    super(code, message);
  }
}

/** A new random secret in the `whsec_<base64>` form. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** The HMAC key of a `whsec_` secret: the base64-decoded part after the prefix. */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    throw new WebhookVerificationError('webhook_invalid_secret', 'The webhook secret is not in the form whsec_<base64>: copy it again from the integration settings.');
  }
  const key = Buffer.from(encoded, 'base64');
  if (key.length < 16) {
    throw new WebhookVerificationError('webhook_invalid_secret', 'The webhook secret decodes to fewer than 16 bytes: copy it again from the integration settings.');
  }
  return key;
}

/** Whether `secret` is a usable `whsec_<base64>` secret. */
export function isWebhookSecret(secret: string): boolean {
  try {
    return secret.startsWith(SECRET_PREFIX) && secretKey(secret).length >= 16;
  } catch {
    return false;
  }
}

/** The `v1,<base64>` signature of a delivery. */
export function signWebhook(input: { id: string; timestamp: number; payload: string; secret: string }): string {
  const mac = createHmac('sha256', secretKey(input.secret)).update(`${input.id}.${input.timestamp}.${input.payload}`).digest('base64');
  return `v1,${mac}`;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

export interface VerifyWebhookInput {
  /** The raw request body, exactly as received. */
  payload: string | Buffer;
  /** Request headers: a fetch `Headers`, or Node's `IncomingHttpHeaders`. */
  headers: HeaderBag;
  /** The integration's `whsec_…` secret. */
  secret: string;
  /** Accepted clock difference in seconds, both ways. Default 300. */
  toleranceSeconds?: number;
  /** "Now" in ms, for tests. Default Date.now(). */
  now?: number;
}

/**
 * Verify a Standard Webhooks delivery (`webhook-id`, `webhook-timestamp`, `webhook-signature`) and
 * return the parsed JSON payload. Any of several space-separated `v1,` signatures may match; the
 * comparison is constant-time. Throws WebhookVerificationError otherwise.
 */
export function verifyWebhook(input: VerifyWebhookInput): unknown {
  const id = header(input.headers, 'webhook-id');
  const timestampText = header(input.headers, 'webhook-timestamp');
  const signatures = header(input.headers, 'webhook-signature');
  if (id === undefined || timestampText === undefined || signatures === undefined) {
    throw new WebhookVerificationError('webhook_missing_headers', 'The request lacks webhook-id, webhook-timestamp or webhook-signature: it was not sent by the article service.');
  }
  if (!/^\d{1,12}$/.test(timestampText.trim())) {
    throw new WebhookVerificationError('webhook_invalid_timestamp', 'The webhook-timestamp header is not a Unix time in seconds.');
  }
  const timestamp = Number(timestampText.trim());
  const tolerance = input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'webhook_timestamp_out_of_tolerance',
      `The webhook timestamp is ${Math.abs(nowSeconds - timestamp)} s away from now (tolerance ${tolerance} s): a replayed or delayed delivery, or a wrong clock.`,
    );
  }
  const payload = typeof input.payload === 'string' ? input.payload : input.payload.toString('utf8');
  const expected = Buffer.from(signWebhook({ id, timestamp, payload, secret: input.secret }).slice(3), 'base64');
  let matched = false;
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || value === undefined) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  if (!matched) {
    throw new WebhookVerificationError('webhook_invalid_signature', 'No webhook signature matches: the body was changed, or the secret is not the one of this integration.');
  }
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return payload;
  }
}
