// downloadImages against a real HTTP server on 127.0.0.1: stored, refused, bounded, timed out, cached.

import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { PipelineOptionError, processArticle, type DownloadImagesOptions } from '../../src/pipeline/index.js';

// A valid 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>');
const MAX_BYTES = 4096;

let server: Server;
let base: string;
const sockets = new Set<Socket>();
const requests = new Map<string, number>();
let dir: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    switch (path) {
      case '/photo.png':
      case '/photo-copy.png':
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
        response.end(PNG);
        return;
      case '/photo.jpg':
        response.writeHead(200, { 'content-type': 'image/jpeg; charset=binary' });
        response.end(JPEG);
        return;
      case '/icon.svg':
        response.writeHead(200, { 'content-type': 'image/svg+xml' });
        response.end(SVG);
        return;
      case '/huge-declared.png':
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': MAX_BYTES * 100 });
        response.end(Buffer.concat([PNG, Buffer.alloc(MAX_BYTES * 100 - PNG.length)]));
        return;
      case '/huge-streamed.png':
        // No content-length: the limit has to hold while reading.
        response.writeHead(200, { 'content-type': 'image/png' });
        for (let chunk = 0; chunk < 100; chunk++) response.write(chunk === 0 ? Buffer.concat([PNG, Buffer.alloc(1024)]) : Buffer.alloc(1024));
        response.end();
        return;
      case '/page.html':
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html><body>Not an image</body></html>');
        return;
      case '/fake.png':
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end('<html><script>alert(1)</script></html>');
        return;
      case '/slow.png':
        // Headers, then a body that never ends.
        response.writeHead(200, { 'content-type': 'image/png' });
        response.write(PNG.subarray(0, 8));
        return;
      case '/redirect':
        response.writeHead(302, { location: '/photo.png' });
        response.end();
        return;
      default:
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('not found');
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  server.close();
  await once(server, 'close');
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pipeline-images-'));
  requests.clear();
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function options(extra: Partial<DownloadImagesOptions> = {}): DownloadImagesOptions {
  return { dir, publicPath: '/images/articles/', maxBytes: MAX_BYTES, timeoutMs: 500, allowPrivateHosts: true, fetch: globalThis.fetch, ...extra };
}

async function download(src: string, extra: Partial<DownloadImagesOptions> = {}) {
  return processArticle(`<p>x</p><img src="${src}" alt="a">`, { keyword: 'k', downloadImages: options(extra) });
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

describe('stored', () => {
  test('should store a PNG under the sha256 of its bytes and rewrite src to the public path', async () => {
    const result = await download(`${base}/photo.png`);
    const name = `${sha256(PNG)}.png`;
    expect(result.images[0]).toMatchObject({ src: `/images/articles/${name}`, originalSrc: `${base}/photo.png` });
    expect(await readFile(join(dir, name))).toEqual(PNG);
    expect(result.warnings).toEqual([]);
  });

  test('should take the extension from the content type', async () => {
    const result = await download(`${base}/photo.jpg`);
    expect(result.images[0]!.src).toBe(`/images/articles/${sha256(JPEG)}.jpg`);
  });

  test('should store identical bytes from two URLs once', async () => {
    await processArticle(`<img src="${base}/photo.png" alt="a"><img src="${base}/photo-copy.png" alt="b">`, { keyword: 'k', downloadImages: options() });
    expect(await readdir(dir)).toEqual([`${sha256(PNG)}.png`]);
  });

  test('should fetch an image used twice in an article once', async () => {
    const result = await processArticle(`<img src="${base}/photo.png" alt="a"><img src="${base}/photo.png" alt="b">`, { keyword: 'k', downloadImages: options() });
    expect(requests.get('/photo.png')).toBe(1);
    expect(new Set(result.images.map((image) => image.src)).size).toBe(1);
  });

  test('should follow a redirect', async () => {
    expect((await download(`${base}/redirect`)).images[0]!.src).toBe(`/images/articles/${sha256(PNG)}.png`);
  });

  test('should serve a rebuild from the cache without a request', async () => {
    const store = new Map<string, string>();
    const cache = { get: async (url: string) => store.get(url), set: async (url: string, file: string) => void store.set(url, file) };
    const first = await download(`${base}/photo.png`, { cache });
    const second = await download(`${base}/photo.png`, { cache });
    expect(requests.get('/photo.png')).toBe(1);
    expect(second.images[0]!.src).toBe(first.images[0]!.src);
  });

  test('should give a downloaded image its real size, over any size declared, from the file and from the cache alike', async () => {
    const store = new Map<string, string>();
    const cache = { get: async (url: string) => store.get(url), set: async (url: string, file: string) => void store.set(url, file) };
    const html = `<p>x</p><img src="${base}/photo.png" alt="a" width="1024" height="1024">`;
    const first = await processArticle(html, { keyword: 'k', imageSize: '16:9', downloadImages: options({ cache }) });
    expect(first.images[0]).toMatchObject({ width: 1, height: 1 });
    expect(first.html).toContain('width="1" height="1"');
    const again = await processArticle(html, { keyword: 'k', imageSize: '16:9', downloadImages: options({ cache }) });
    expect(requests.get('/photo.png')).toBe(1);
    expect(again.images[0]).toMatchObject({ width: 1, height: 1 });
  });

  test('should leave relative images alone', async () => {
    const result = await download('/local/a.png');
    expect(result.images[0]!.src).toBe('/local/a.png');
    expect(requests.size).toBe(0);
  });
});

describe('fetch', () => {
  test('should download with the fetch function it is given', async () => {
    const fetched: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      fetched.push(String(input));
      return globalThis.fetch(input, init);
    };
    const result = await download(`${base}/photo.png`, { fetch });
    expect(fetched).toEqual([`${base}/photo.png`]);
    expect(result.images[0]!.src).toBe(`/images/articles/${sha256(PNG)}.png`);
  });

  test('should refuse downloadImages without a fetch function, naming it', async () => {
    const { fetch: _fetch, ...withoutFetch } = options();
    const refused = processArticle('<img src="https://images.example/a.png" alt="a">', { keyword: 'k', downloadImages: withoutFetch as DownloadImagesOptions });
    await expect(refused).rejects.toThrow(PipelineOptionError);
    await expect(refused).rejects.toThrow('`downloadImages.fetch`');
  });
});

describe('refused', () => {
  test.each([
    ['an SVG', '/icon.svg', 'SVG can carry script'],
    ['an HTML page', '/page.html', 'content type "text/html" is not an accepted image type'],
    ['a body that is not the declared image type', '/fake.png', 'its bytes are not a image/png image'],
    ['a declared size over the limit', '/huge-declared.png', `larger than the ${MAX_BYTES}-byte limit`],
    ['a streamed size over the limit', '/huge-streamed.png', `larger than the ${MAX_BYTES}-byte limit`],
    ['a 404', '/missing.png', 'HTTP 404'],
    ['a server too slow to finish', '/slow.png', 'took longer than 500 ms'],
  ])('should keep the remote URL and warn for %s', async (_case, path, reason) => {
    const result = await download(`${base}${path}`);
    expect(result.images[0]!.src).toBe(`${base}${path}`);
    expect(result.images[0]!.originalSrc).toBeUndefined();
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain(`${base}${path}`);
    expect(result.warnings[0]).toContain(reason);
    expect(await readdir(dir).catch(() => [])).toEqual([]);
  });

  test('should refuse a loopback host unless allowPrivateHosts is set, without contacting it', async () => {
    const result = await download(`${base}/photo.png`, { allowPrivateHosts: false });
    expect(result.images[0]!.src).toBe(`${base}/photo.png`);
    expect(result.warnings[0]).toContain('private or loopback');
    expect(requests.size).toBe(0);
  });

  test('should leave the query string out of warnings', async () => {
    const result = await download(`${base}/missing.png?X-Amz-Signature=secret-token`);
    expect(result.warnings[0]).not.toContain('secret-token');
    expect(result.images[0]!.src).toContain('secret-token');
  });
});
