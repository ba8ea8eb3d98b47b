// A silent or refusing service: every exchange has a deadline, and after a few in a row the client stops asking.
import { generateKeyPairSync } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArticleClient } from '../../src/api/client.js';
import { API_KEY, ARTICLE_ID, ARTICLE_PATH, CREATE_PATH, clientFor, finishedRecord, rejection } from './client-fixtures.js';
import { type ScriptedServer, closedPort, startScriptedServer } from './scripted-server.js';

const REQUEST = { targetKeyword: 'best hiking boots' };

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.stop();
});

describe('the deadline of one exchange', () => {
  it('should end an answer whose body trickles forever at the timeout, connection, headers and body together', async () => {
    server.route('GET', ARTICLE_PATH, { status: 200, partialBody: '{"config":{"targetKeyword":"x"},', stall: true });
    const client = clientFor(server, { timeoutMs: 300, retry: { maxAttempts: 1 } });
    const error = await rejection(client.getArticle(ARTICLE_ID));
    expect(error).toMatchObject({ code: 'timeout', attempts: 1 });
    await client.close();
  });
});

describe('the circuit breaker', () => {
  it('should stop asking after three attempts in a row get no answer, and fail every later call without a request', async () => {
    server.route('GET', ARTICLE_PATH, { hang: true });
    const client = clientFor(server, { timeoutMs: 100, retry: { maxAttempts: 5 } });
    const first = await rejection(client.getArticle(ARTICLE_ID));
    expect(first).toMatchObject({ code: 'service_unreachable', retryable: false });
    expect(first.message).toContain('did not answer 3 requests in a row');
    expect(first.message).toContain('Articles already in the lock file and the cache are still served');
    expect(server.requests).toHaveLength(3);
    const later = await rejection(client.getArticle(ARTICLE_ID));
    expect(later).toMatchObject({ code: 'service_unreachable' });
    expect(server.requests).toHaveLength(3);
    expect(client.stats.requests).toBe(3);
    await client.close();
  });

  it('should count attempts across calls, and reset on any answer, even a 500', async () => {
    server.route('GET', ARTICLE_PATH, { hang: true }, { hang: true }, { status: 500, body: { error: 'server_error' } }, { hang: true }, { hang: true }, { status: 200, body: finishedRecord() });
    const client = clientFor(server, { timeoutMs: 100, retry: { maxAttempts: 3 } });
    await expect(client.getArticle(ARTICLE_ID)).rejects.toMatchObject({ code: 'server_error' });
    // hang, hang, 500 (reset), hang, hang: never three in a row, so the sixth request is sent.
    await expect(client.getArticle(ARTICLE_ID)).resolves.toMatchObject({ status: 'finished' });
    expect(server.requests).toHaveLength(6);
    await client.close();
  });

  it('should give up on a refused port within a couple of seconds with the default settings', async () => {
    const port = await closedPort();
    const client = createArticleClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY });
    const started = performance.now();
    const error = await rejection(client.getArticle(ARTICLE_ID));
    const again = await rejection(client.createArticle(REQUEST));
    console.log(`[client] refused port, default settings: first call failed after ${Math.round(performance.now() - started)} ms`);
    expect(error).toMatchObject({ code: 'service_unreachable', cause: { code: 'network_error' } });
    // Never sent, so nothing can have been billed: not an unknown outcome.
    expect(again).toMatchObject({ code: 'service_unreachable' });
    expect(client.stats.requests).toBe(3);
    await client.close();
  });

  it('should keep a create that may have reached the service an unknown outcome, even when it opens the breaker', async () => {
    server.route('POST', CREATE_PATH, { hang: true });
    const client = clientFor(server, { timeoutMs: 100, unreachableAfter: 1 });
    const error = await rejection(client.createArticle(REQUEST));
    expect(error).toMatchObject({ code: 'create_outcome_unknown' });
    expect(server.requests).toHaveLength(1);
    await expect(client.getArticle(ARTICLE_ID)).rejects.toMatchObject({ code: 'service_unreachable' });
    await client.close();
  });

  it('should refuse an unreachableAfter that cannot work', () => {
    expect(() => createArticleClient({ baseUrl: server.url, apiKey: API_KEY, unreachableAfter: 0 })).toThrow(/unreachableAfter must be a whole number of at least 1/);
  });
});

/** A self-signed certificate for 127.0.0.1, made with openssl (Debian has it), or undefined where it is missing. */
function selfSignedCertificate(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'aal-tls-'));
  try {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = join(dir, 'key.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    execFileSync('openssl', ['req', '-x509', '-new', '-key', keyFile, '-subj', '/CN=127.0.0.1', '-days', '1', '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a TLS failure', () => {
  it('should count a create refused at the TLS handshake as never sent: retried, never an unknown outcome', async () => {
    const tls = selfSignedCertificate();
    expect(tls, 'openssl is needed to make a test certificate').toBeDefined();
    let requests = 0;
    const secure = https.createServer(tls!, (_req, res) => {
      requests += 1;
      res.end('{}');
    });
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    const { port } = secure.address() as AddressInfo;
    try {
      const client = createArticleClient({ baseUrl: `https://127.0.0.1:${port}`, apiKey: API_KEY, retry: { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 2 }, unreachableAfter: 10 });
      const error = await rejection(client.createArticle(REQUEST));
      expect(error.code).toBe('network_error');
      expect(error.message).toMatch(/SELF_SIGNED|self-signed/i);
      expect(error.attempts).toBe(2);
      expect(requests).toBe(0);
      await client.close();
    } finally {
      await new Promise<void>((resolve) => secure.close(() => resolve()));
    }
  });
});
