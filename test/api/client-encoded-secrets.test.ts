// A service that echoes the API key back in any encoding: the key never leaves the client, and the article survives.
import util from 'node:util';
import { parseFragment } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretForms, secretRedactor } from '../../src/api/secret-redactor.js';
import { API_KEY, ARTICLE_ID, ARTICLE_PATH, CREATE_PATH, LINKS_PATH, clientFor, finishedRecord, rejection } from './client-fixtures.js';
import { type ScriptedServer, startScriptedServer } from './scripted-server.js';

const bytes = Buffer.from(API_KEY);
/** The key as a service might echo it: raw, URL-encoded (both cases), hex, base64 and base64url, alone and inside a longer encoded text. */
const ECHOES: Record<string, string> = {
  raw: API_KEY,
  hex: bytes.toString('hex'),
  HEX: bytes.toString('hex').toUpperCase(),
  base64: bytes.toString('base64'),
  base64url: bytes.toString('base64url'),
  'base64 of "Bearer <key>"': Buffer.from(`Bearer ${API_KEY}`).toString('base64'),
  'base64 of "user:<key>"': Buffer.from(`user:${API_KEY}`).toString('base64'),
  'base64url of a JSON document': Buffer.from(JSON.stringify({ authorization: `Bearer ${API_KEY}` })).toString('base64url'),
  'one character as an HTML decimal reference': `${API_KEY.slice(0, 1)}&#107;${API_KEY.slice(2)}`,
  'every character as an HTML hexadecimal reference, some without ";", with leading zeros': [...API_KEY].map((c, i) => `&#${i % 2 ? 'X' : 'x'}00${c.charCodeAt(0).toString(16).toUpperCase()}${i % 3 ? ';' : ''}`).join(''),
};

/** The text and attribute values of `html` as a browser reads them, character references decoded. */
function decoded(html: string): string {
  const parts: string[] = [];
  const walk = (node: { value?: string; attrs?: { value: string }[]; childNodes?: unknown[] }) => {
    if (typeof node.value === 'string') parts.push(node.value);
    for (const attribute of node.attrs ?? []) parts.push(attribute.value);
    for (const child of node.childNodes ?? []) walk(child as typeof node);
  };
  walk(parseFragment(html) as unknown as Parameters<typeof walk>[0]);
  return parts.join('');
}

/** Whether any encoding of `key` is in `text`. */
function holdsKey(text: string, key = API_KEY): boolean {
  const forms = (part: string) => secretForms(key).some((form) => part.includes(form)) || part.toLowerCase().includes(encodeURIComponent(key).toLowerCase());
  return forms(text) || forms(decoded(text));
}

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.stop();
});

describe('secretRedactor', () => {
  for (const [name, echo] of Object.entries(ECHOES)) {
    it(`should remove the key echoed as ${name}`, () => {
      const { redact, found } = secretRedactor(API_KEY);
      const text = `<p>before ${echo} after</p>`;
      expect(found(text)).toBe(true);
      const redacted = redact(text);
      expect(redacted.startsWith('<p>before ')).toBe(true);
      expect(redacted.endsWith(' after</p>')).toBe(true);
      expect(holdsKey(redacted)).toBe(false);
    });
  }

  it('should remove a key with reserved characters echoed URL-encoded, whatever the case of its escapes', () => {
    const key = 'sk+live/KEY=abc123';
    const { redact } = secretRedactor(key);
    const upper = encodeURIComponent(key);
    const lower = upper.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    expect(upper).not.toBe(lower);
    const redacted = redact(`a=${upper}&b=${lower}&c=${key}`);
    expect(redacted).toBe('a=[redacted]&b=[redacted]&c=[redacted]');
    expect(holdsKey(redacted, key)).toBe(false);
  });

  it('should remove a key written with HTML named references for its punctuation', () => {
    const key = 'sk_live.KEY:abc123';
    const { redact, found } = secretRedactor(key);
    const text = `<p>a sk&lowbar;live&period;KEY&colon;abc123 b sk&UnderBar;live.KEY:abc123 c</p>`;
    expect(found(text)).toBe(true);
    expect(redact(text)).toBe('<p>a [redacted] b [redacted] c</p>');
  });

  it('should leave text without the key alone, and find nothing in it', () => {
    const { redact, found } = secretRedactor(API_KEY);
    const text = '<p>Base64 of another key: c2stbGl2ZS1PVEhFUi0xMjM0 and hex 736b2d6c6976652d</p>';
    expect(found(text)).toBe(false);
    expect(redact(text)).toBe(text);
  });
});

describe('a service echoing the key', () => {
  it('should keep the article, with every echo of the key in its HTML, text, error and config replaced, and report it', async () => {
    const echoes = Object.values(ECHOES).join(' | ');
    const record = finishedRecord() as { output: { html: string; polishedHtml: string | null }; statusDetail: string; config: Record<string, unknown>; error: unknown };
    record.output = { html: `<h1>Boots</h1><p>Key: ${echoes}</p><p>Kept text.</p>`, polishedHtml: `<p>${echoes}</p>` };
    record.statusDetail = `Finished for ${ECHOES.base64}`;
    record.config = { ...record.config, note: ECHOES.hex };
    server.route('GET', ARTICLE_PATH, { status: 200, body: record });
    const reported: string[] = [];
    const client = clientFor(server, { onSecretEchoed: (info) => reported.push(info.where) });
    const status = await client.getArticle(ARTICLE_ID);
    expect(holdsKey(JSON.stringify(status))).toBe(false);
    expect(status.status === 'finished' && status.output.html).toContain('<p>Kept text.</p>');
    expect(reported).toEqual(['the status record for "best hiking boots"']);
    await client.close();
  });

  it('should keep every encoding of the key out of errors built from error bodies', async () => {
    server.route('POST', CREATE_PATH, { status: 400, body: { error: ECHOES.base64, message: `bad key ${ECHOES.hex}`, fields: [{ path: ECHOES.base64url, message: ECHOES.HEX }] } });
    const client = clientFor(server);
    const error = await rejection(client.createArticle({ targetKeyword: 'x' }));
    const views = [error.message, error.stack ?? '', util.inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error)];
    for (const view of views) expect(holdsKey(view)).toBe(false);
    await client.close();
  });

  it('should keep every encoding of the key out of internal-link answers, which are cached', async () => {
    server.route('POST', LINKS_PATH, { status: 200, headers: { 'content-type': 'text/html' }, body: `<p>linked ${ECHOES['base64 of "Bearer <key>"']}</p>` });
    const client = clientFor(server);
    const linked = await client.createInternalLinks({ content: '<p>x</p>', domainId: 'd', format: 'html' });
    expect(holdsKey(linked)).toBe(false);
    expect(linked).toContain('<p>linked ');
    await client.close();
  });
});
