// Shared pieces of the client tests: a secret-looking key, sample answers, a client factory, secret checks.
import util from 'node:util';
import { expect } from 'vitest';
import { type ArticleClient, type ArticleClientOptions, createArticleClient } from '../../src/api/client.js';
import type { ScriptedServer } from './scripted-server.js';

export const API_KEY = 'sk-live-TOPSECRET-4f9c2a7e1b83d6';
export const ARTICLE_ID = '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b';
export const ARTICLE_PATH = `/api/articles/${ARTICLE_ID}`;
export const CREATE_PATH = '/api/articles/';
export const LINKS_PATH = '/api/internal-links/';

export function processingRecord(): Record<string, unknown> {
  return {
    config: { targetKeyword: 'best hiking boots' },
    status: 'processing',
    statusDetail: 'Writing section 2',
    updatedAt: 1_760_000_000_000,
    progress: 0.4,
    error: null,
  };
}

export function finishedRecord(): Record<string, unknown> {
  return {
    ...processingRecord(),
    status: 'finished',
    statusDetail: 'Article finished',
    progress: 1,
    output: { html: '<h1>Best hiking boots</h1><p>Text.</p>', polishedHtml: null },
  };
}

/** A client with tiny backoff delays so retry tests run fast; override anything. */
export function clientFor(server: ScriptedServer, overrides: Partial<ArticleClientOptions> = {}): ArticleClient {
  return createArticleClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    timeoutMs: 5_000,
    ...overrides,
    retry: { baseDelayMs: 1, maxDelayMs: 5, ...overrides.retry },
  });
}

/** The rejection of `promise`; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/**
 * Every way an error can be looked at (message, stack, own properties hidden or not, the
 * whole cause chain, util.inspect, JSON) must be free of the key.
 */
export function expectNoSecret(value: unknown, secret: string = API_KEY): void {
  const views: string[] = [
    util.inspect(value, { depth: Infinity, showHidden: true, getters: true }),
    JSON.stringify(value) ?? '',
    String(value),
  ];
  const seen = new Set<unknown>();
  let current: unknown = value;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    for (const name of Object.getOwnPropertyNames(current)) {
      const property = (current as Record<string, unknown>)[name];
      views.push(typeof property === 'string' ? property : util.inspect(property, { depth: Infinity, showHidden: true }));
    }
    current = (current as { cause?: unknown }).cause;
  }
  for (const view of views) expect(view).not.toContain(secret);
}
