// A service (or a proxy before it) that compresses its answers: the client sends no Accept-Encoding, which allows any
// coding (RFC 9110), so gzip, br and deflate answers are decoded, error bodies too, and a decoded answer past 64 MiB
// is a failed attempt, not a process out of memory.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTICLE_ID, ARTICLE_PATH, CREATE_PATH, clientFor, expectNoSecret, finishedRecord, rejection } from './client-fixtures.js';
import { type ScriptedServer, startScriptedServer } from './scripted-server.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.stop();
});

describe('compressed answers', () => {
  it('should read a create answered with gzip and a status record answered with br and with deflate', async () => {
    server.route('POST', CREATE_PATH, { status: 201, body: { articleId: ARTICLE_ID }, encoding: 'gzip' });
    server.route('GET', ARTICLE_PATH, { status: 200, body: finishedRecord(), encoding: 'br' }, { status: 200, body: finishedRecord(), encoding: 'deflate' });
    const client = clientFor(server);
    try {
      expect(await client.createArticle({ targetKeyword: 'best hiking boots' })).toBe(ARTICLE_ID);
      for (let i = 0; i < 2; i += 1) {
        const status = await client.getArticle(ARTICLE_ID);
        expect(status.status === 'finished' && status.output.html).toBe('<h1>Best hiking boots</h1><p>Text.</p>');
      }
    } finally {
      await client.close();
    }
  });

  it("should quote the service's message from a gzip error body", async () => {
    server.route('POST', CREATE_PATH, { status: 400, body: { error: 'invalid_parameter', message: 'targetKeyword is too long' }, encoding: 'gzip' });
    const client = clientFor(server);
    try {
      const error = await rejection(client.createArticle({ targetKeyword: 'best hiking boots' }));
      expect(error.message).toContain('targetKeyword is too long');
    } finally {
      await client.close();
    }
  });

  it('should take a create answered in a coding it cannot decode as maybe billed: create_outcome_unknown, not retried', async () => {
    server.route('POST', CREATE_PATH, { status: 201, headers: { 'content-encoding': 'x-unheard-of' }, body: { articleId: ARTICLE_ID } });
    const before = server.requests.length;
    const client = clientFor(server);
    try {
      const error = await rejection(client.createArticle({ targetKeyword: 'best hiking boots' }));
      expect(error).toMatchObject({ code: 'create_outcome_unknown' });
      expect(error.message).toContain('the answer is encoded as "x-unheard-of", which the client cannot decode');
      expect(server.requests.length - before).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('should fail the attempt, without the key, on an answer that decodes past 64 MiB', async () => {
    // 65 MiB of spaces: well under a megabyte on the wire.
    const spaces = ' '.repeat(65 * 1024 * 1024);
    expect(gzipSync(spaces).length).toBeLessThan(1024 * 1024);
    server.route('GET', ARTICLE_PATH, { status: 200, headers: { 'content-type': 'application/json' }, body: spaces, encoding: 'gzip' });
    const client = clientFor(server);
    try {
      const error = await rejection(client.getArticle(ARTICLE_ID));
      // As docs/client.md says: an unreadable answer, invalid_response once retries are spent.
      expect(error).toMatchObject({ code: 'invalid_response' });
      expect(error.message).toContain('the answer decodes to more than 64 MiB');
      expectNoSecret(error);
    } finally {
      await client.close();
    }
  });
});
