// The route table: which path and methods name which route, and the handler each route runs.
import type { IncomingMessage } from 'node:http';
import type { Account } from '../accounts.js';
import type { RouteResult } from '../answer.js';
import type { EmulatorContext } from '../context.js';
import { ledgerRoute } from './admin.js';
import { createArticle, getArticle } from './articles.js';
import { imageRoute } from './images.js';
import { internalLinks } from './internal-links.js';

/** A matched route with the methods it allows and what its path carries. */
export type Route =
  | { name: 'health'; allow: string[] }
  | { name: 'createArticle' | 'internalLinks' | 'ledger'; allow: string[] }
  | { name: 'getArticle'; allow: string[]; articleId: string }
  | { name: 'image'; allow: string[]; fileName: string };

/** The routes that run a handler (health is answered by the pipeline itself). */
export type HandledRoute = Exclude<Route, { name: 'health' }>;

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The route for a path, or undefined (404). */
export function matchRoute(pathname: string): Route | undefined {
  if (pathname === '/api/articles' || pathname === '/api/articles/') return { name: 'createArticle', allow: ['POST'] };
  const article = /^\/api\/articles\/([^/]+)\/?$/.exec(pathname);
  if (article !== null) return { name: 'getArticle', allow: ['GET'], articleId: decodePathSegment(article[1] as string) };
  if (pathname === '/api/internal-links' || pathname === '/api/internal-links/') return { name: 'internalLinks', allow: ['POST'] };
  const image = /^\/_emulator\/images\/([^/]+)$/.exec(pathname);
  if (image !== null) return { name: 'image', allow: ['GET', 'HEAD'], fileName: image[1] as string };
  if (pathname === '/_emulator/ledger') return { name: 'ledger', allow: ['GET'] };
  if (pathname === '/_emulator/health') return { name: 'health', allow: ['GET'] };
  return undefined;
}

/** Run a route's handler. `account` is undefined only for the image route, which needs no key. */
export async function runRoute(ctx: EmulatorContext, route: HandledRoute, req: IncomingMessage, query: URLSearchParams, account: Account | undefined): Promise<RouteResult> {
  switch (route.name) {
    case 'createArticle':
      return createArticle(ctx, req, account as Account);
    case 'getArticle':
      return { answer: getArticle(ctx, route.articleId, account as Account) };
    case 'internalLinks':
      return internalLinks(ctx, req, account as Account);
    case 'image':
      return { answer: imageRoute(ctx, route.fileName, query) };
    case 'ledger':
      return { answer: ledgerRoute(ctx, account as Account) };
  }
}
