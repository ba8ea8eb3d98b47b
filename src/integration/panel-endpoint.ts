// The dev server's endpoint for the toolbar's actions: a JSON POST from the panel on the server's own loopback origin, with the session's token; anything else is refused.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { z } from 'zod';
import { ArticleLoaderError } from '../errors.js';
import type { PanelRequest } from './panel-actions.js';
import { PANEL_ACTIONS, PANEL_ENDPOINT, TOKEN_HEADER } from './panel-state.js';

/** Larger bodies are refused unread: a request names one action on one article. */
const MAX_BODY_BYTES = 4096;

const requestSchema = z.strictObject({
  action: z.enum(PANEL_ACTIONS),
  collection: z.string().min(1).max(200),
  slug: z.string().min(1).max(200),
  confirm: z.boolean().optional(),
});

/** A new secret for one dev server: the panel receives it over the toolbar channel, which only the server's own pages can open. */
export function newPanelToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The part of Vite's connect server the endpoint uses. */
export interface MiddlewareHost {
  use(path: string, handler: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void): unknown;
}

function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/** The Host header names this machine (a rebound DNS name for the same socket does not). */
function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(host)?.[1]?.toLowerCase();
  return name === 'localhost' || name === '[::1]' || (name !== undefined && isIP(name) === 4 && name.startsWith('127.'));
}

function sameToken(given: string | string[] | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why a request is refused before its body is read, or undefined when it may act. */
export function refusal(req: IncomingMessage, token: string): { status: number; message: string } | undefined {
  if (req.method !== 'POST') return { status: 405, message: `${PANEL_ENDPOINT} takes POST only` };
  if (!isLoopbackAddress(req.socket.remoteAddress)) return { status: 403, message: 'the toolbar acts from this machine only (127.0.0.1)' };
  const host = req.headers.host;
  if (!isLoopbackHost(host)) return { status: 403, message: 'the Host is not this machine (127.0.0.1, localhost or [::1])' };
  const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
  // Browsers send Origin on every POST: its absence or any other site is refused.
  if (req.headers.origin !== `${scheme}://${host}`) return { status: 403, message: 'a request from another origin is refused' };
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return { status: 403, message: 'a request from another site is refused' };
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return { status: 415, message: 'send JSON (Content-Type: application/json)' };
  if (!sameToken(req.headers[TOKEN_HEADER], token)) return { status: 403, message: "the request lacks this dev server's token (reload the page)" };
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify(body));
}

function parseRequest(text: string | undefined): PanelRequest | string {
  if (text === undefined) return `the body is larger than ${MAX_BODY_BYTES} bytes`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  const parsed = requestSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  return parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
}

/** Mounts the endpoint on the dev server: every refusal answers before anything is read from disk or written. */
export function servePanelActions(middlewares: MiddlewareHost, options: { root: string; token: string; onActed?(): void }): void {
  middlewares.use(PANEL_ENDPOINT, (req, res) => {
    void (async () => {
      const refused = refusal(req, options.token);
      if (refused !== undefined) {
        reply(res, refused.status, { ok: false, code: 'refused', message: refused.message });
        return;
      }
      const request = parseRequest(await readBody(req));
      if (typeof request === 'string') {
        reply(res, 400, { ok: false, code: 'bad_request', message: request });
        return;
      }
      // The actions (the sync engine, the review room) load with the first request, not with astro.config.
      const { PanelActionError, runPanelAction } = await import('./panel-actions.js');
      try {
        const answer = await runPanelAction(request, options.root);
        options.onActed?.();
        reply(res, 200, { ok: true, ...answer });
      } catch (error) {
        if (error instanceof ArticleLoaderError) reply(res, error instanceof PanelActionError ? error.status : 409, { ok: false, code: error.code, message: error.message });
        else reply(res, 500, { ok: false, code: 'internal', message: error instanceof Error ? error.message : String(error) });
      }
    })();
  });
}
