// Starting and stopping: the node:http server, state restored before listening, unfinished articles resumed, one stop.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STATUS_DETAIL } from './article-store.js';
import type { EmulatorContext } from './context.js';
import { errorBody, JSON_TYPE, send } from './http-exchange.js';

/** An HTTP server answering with `handle`; a request it fails on gets a 500 (or is dropped once answering began). */
export function createHttpServer(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Server {
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) send(res, 500, errorBody('server_error', 'The emulator failed to answer this request.'), JSON_TYPE);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  return server;
}

/** Load the state file's articles, ledger and idempotency keys, before requests are accepted. */
export async function restoreState(ctx: EmulatorContext): Promise<void> {
  if (ctx.stateFile === undefined) return;
  const snapshot = await ctx.stateFile.load();
  if (snapshot === undefined) return;
  ctx.ledger.restore(snapshot.ledger);
  ctx.idempotency.restore(snapshot.idempotency);
  for (const record of snapshot.articles) ctx.articles.set(record.id, record);
}

function urlOf(address: AddressInfo): string {
  const displayHost = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '[::1]' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${displayHost}:${address.port}`;
}

/** Listen on the configured port and host (default an ephemeral port on 127.0.0.1); resolves with the URL. */
export async function listen(ctx: EmulatorContext, server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(ctx.options.port ?? 0, ctx.options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = urlOf(server.address() as AddressInfo);
  ctx.origin = (ctx.options.publicUrl ?? url).replace(/\/+$/, '');
  return url;
}

/** Unfinished articles resume from the queue: the deterministic writer writes the same again; a model writer asks only for the parts it had no answer to. */
export function resumeUnfinished(ctx: EmulatorContext): void {
  for (const record of ctx.articles.values()) {
    if (record.status === 'queued' || record.status === 'processing') {
      Object.assign(record, { status: 'queued', statusDetail: STATUS_DETAIL.queued, progress: 0, updatedAt: Date.now() });
      ctx.workers.add(record);
    }
  }
}

/** A stop that closes the server and connections, cancels work and writes the state file; later calls do nothing. */
export function stopper(ctx: EmulatorContext, server: Server): () => Promise<void> {
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    ctx.clock.cancelAll();
    ctx.webhooks.stop();
    ctx.workers.clear();
    await ctx.modelWriter?.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await ctx.webhooks.idle();
    if (ctx.stateFile !== undefined) {
      ctx.stateFile.schedule();
      await ctx.stateFile.flush();
    }
  };
}
