// The emulator's HTTP server: startEmulator composes the context, the request pipeline, the lifecycle and the control handle.
import { runningEmulator } from './control.js';
import { createContext } from './create-context.js';
import { createHttpServer, listen, restoreState, resumeUnfinished, stopper } from './lifecycle.js';
import type { EmulatorOptions } from './options.js';
import { handleRequest } from './request-pipeline.js';
import type { RunningEmulator } from './running-emulator.js';

export type { AccountBalance, ArticleStatusRecord, CmsDraft, RequestLogEntry, RunningEmulator } from './running-emulator.js';

/** Start the emulator. Resolves once it listens; read `url` for the port it got. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const ctx = await createContext(options);
  const server = createHttpServer((req, res) => handleRequest(ctx, req, res));
  // Restore persisted state before accepting requests.
  await restoreState(ctx);
  const url = await listen(ctx, server);
  resumeUnfinished(ctx);
  return runningEmulator(ctx, url, stopper(ctx, server));
}
