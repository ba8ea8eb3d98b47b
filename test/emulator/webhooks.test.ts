import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createArticleClient } from '../../src/api/client.js';
import { generateWebhookSecret, signWebhook, startEmulator, verifyWebhook, WebhookVerificationError, type RunningEmulator } from '../../src/emulator/index.js';

const KEY = 'webhook-test-key';
const SECRET = generateWebhookSecret();

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Statuses the receiver answers with, in order; 204 once they run out. */
let answers: number[] = [];
let emulator: RunningEmulator;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = answers.shift() ?? 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  emulator = await startEmulator({
    timing: 'instant',
    apiKey: KEY,
    integrations: [
      { id: 'hook', type: 'custom_webhook', url: `${receiverUrl}/signed`, secret: SECRET },
      { id: 'cms-1', type: 'cms' },
    ],
    webhooks: { maxAttempts: 3 },
  });
});
afterEach(() => {
  received.length = 0;
  answers = [];
  emulator.setFaults(undefined);
  emulator.reset();
});
afterAll(async () => {
  await emulator.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

async function create(request: Record<string, unknown>): Promise<string> {
  const client = createArticleClient({ baseUrl: emulator.url, apiKey: KEY });
  try {
    return await client.createArticle({ targetKeyword: 'sourdough', ...request });
  } finally {
    await client.close();
  }
}

describe('webhooks', () => {
  it('should POST the status payload to webhookUrl when the article finishes', async () => {
    const articleId = await create({ webhookUrl: `${receiverUrl}/plain` });
    await emulator.settle();
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(delivery?.path).toBe('/plain');
    expect(delivery?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(delivery?.body ?? '')).toEqual(emulator.article(articleId));
    expect(JSON.parse(delivery?.body ?? '')).toMatchObject({ status: 'finished', output: { html: expect.stringContaining('<h1') } });
    expect(delivery?.headers['webhook-signature']).toBeUndefined();
  });

  it('should deliver a signed request to a custom webhook integration that verifyWebhook accepts', async () => {
    const articleId = await create({ integrationId: 'hook' });
    await emulator.settle();
    const [delivery] = received;
    expect(delivery?.path).toBe('/signed');
    expect(delivery?.headers['webhook-id']).toMatch(/^msg_/);
    expect(delivery?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const payload = verifyWebhook({ payload: delivery?.body ?? '', headers: delivery?.headers ?? {}, secret: SECRET });
    expect(payload).toMatchObject({ type: 'article.finished', timestamp: expect.any(String), data: { articleId, status: 'finished' } });
  });

  it('should send article.failed for an article that fails', async () => {
    emulator.setFaults({ failedArticles: 1 });
    await create({ integrationId: 'hook' });
    await emulator.settle();
    const payload = verifyWebhook({ payload: received[0]?.body ?? '', headers: received[0]?.headers ?? {}, secret: SECRET });
    expect(payload).toMatchObject({ type: 'article.failed', data: { status: 'failed', error: { code: 'generation_failed' } } });
  });

  it('should retry a non-2xx answer with the same webhook-id and a fresh signature', async () => {
    answers = [500, 503];
    await create({ integrationId: 'hook' });
    await emulator.settle();
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const attempt of received) expect(() => verifyWebhook({ payload: attempt.body, headers: attempt.headers, secret: SECRET })).not.toThrow();
    expect(emulator.webhookDeliveries[0]).toMatchObject({ state: 'delivered', attempts: [{ status: 500 }, { status: 503 }, { status: 204 }] });
  });

  it('should give up after the configured attempts', async () => {
    answers = [500, 500, 500, 500];
    await create({ webhookUrl: `${receiverUrl}/plain` });
    await emulator.settle();
    expect(received).toHaveLength(3);
    expect(emulator.webhookDeliveries[0]?.state).toBe('gave_up');
  });

  it('should record a draft for a CMS integration', async () => {
    const articleId = await create({ integrationId: 'cms-1' });
    await emulator.settle();
    expect(emulator.drafts).toEqual([{ articleId, integrationId: 'cms-1', account: 'default', title: expect.any(String), at: expect.any(Number) }]);
    expect(received).toHaveLength(0);
  });

  it('should never record the webhook secret in deliveries or the request log', async () => {
    await create({ integrationId: 'hook' });
    await emulator.settle();
    const secretPart = SECRET.slice('whsec_'.length);
    expect(JSON.stringify([emulator.webhookDeliveries, emulator.requests, emulator.ledger])).not.toContain(secretPart);
  });
});

describe('verifyWebhook', () => {
  const payload = JSON.stringify({ type: 'article.finished', data: { articleId: 'a' } });
  const now = 1_700_000_000_000;
  const timestamp = now / 1000;
  const headers = (signature: string, at = timestamp) => ({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(at), 'webhook-signature': signature });
  const good = signWebhook({ id: 'msg_1', timestamp, payload, secret: SECRET });

  it('should return the parsed payload for a valid signature', () => {
    expect(verifyWebhook({ payload, headers: headers(good), secret: SECRET, now })).toEqual(JSON.parse(payload));
  });

  it('should accept fetch Headers and a Buffer payload', () => {
    expect(verifyWebhook({ payload: Buffer.from(payload), headers: new Headers(headers(good)), secret: SECRET, now })).toEqual(JSON.parse(payload));
  });

  it('should accept when any of several signatures matches', () => {
    expect(() => verifyWebhook({ payload, headers: headers(`v1,AAAA ${good} v2,BBBB`), secret: SECRET, now })).not.toThrow();
  });

  it('should reject a bad signature', () => {
    const tampered = payload.replace('"a"', '"b"');
    expect(() => verifyWebhook({ payload: tampered, headers: headers(good), secret: SECRET, now })).toThrow(expect.objectContaining({ code: 'webhook_invalid_signature' }));
  });

  it('should reject a signature made with another secret', () => {
    expect(() => verifyWebhook({ payload, headers: headers(good), secret: generateWebhookSecret(), now })).toThrow(WebhookVerificationError);
  });

  it('should reject a timestamp older than the tolerance', () => {
    const old = timestamp - 301;
    const signature = signWebhook({ id: 'msg_1', timestamp: old, payload, secret: SECRET });
    expect(() => verifyWebhook({ payload, headers: headers(signature, old), secret: SECRET, now })).toThrow(expect.objectContaining({ code: 'webhook_timestamp_out_of_tolerance' }));
    expect(() => verifyWebhook({ payload, headers: headers(signature, old), secret: SECRET, now, toleranceSeconds: 600 })).not.toThrow();
  });

  it('should reject a request without the webhook headers', () => {
    expect(() => verifyWebhook({ payload, headers: {}, secret: SECRET, now })).toThrow(expect.objectContaining({ code: 'webhook_missing_headers' }));
  });

  it('should reject a malformed secret without echoing it', () => {
    const error = (() => {
      try {
        verifyWebhook({ payload, headers: headers(good), secret: 'whsec_not base64!', now });
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();
    expect(error).toMatchObject({ code: 'webhook_invalid_secret' });
    expect(error?.message).not.toContain('not base64!');
  });
});
