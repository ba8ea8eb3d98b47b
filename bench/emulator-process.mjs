// The emulator in its own process for benchmarks, so its work never competes with the measured client for the event loop.
//
// Started with child_process.fork(); spoken to over IPC:
//   parent → { type: 'start', options, writing? }   child → { type: 'started', url, apiKey }
//   parent → { type: 'report' }                      child → { type: 'report', requests, creations, duplicates, lastFinishAt }
//   parent → { type: 'stop' }                        child → { type: 'stopped' } and exits
// `writing: { seed, scale, minMs, maxMs }` gives every article a writing time fixed by its keyword
// (a function cannot cross the process boundary).

import { createHash } from 'node:crypto';
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distUrl } from './dist-location.mjs';

/** Writing time of one article, fixed by its keyword and the seed. */
export function writingTimeOf(keyword, { seed, scale, minMs, maxMs }) {
  const roll = createHash('sha256').update(`${seed}\u0000${keyword}`).digest().readUInt32BE(0) / 2 ** 32;
  return (minMs + roll * (maxMs - minMs)) * scale;
}

/** Starts an emulator process; resolves once it listens. */
export async function startEmulatorProcess(options, writing) {
  const child = fork(fileURLToPath(import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map();
  child.on('message', (message) => {
    const resolve = waiting.get(message.type);
    waiting.delete(message.type);
    resolve?.(message);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ask = (message, answer) =>
    new Promise((resolve, reject) => {
      waiting.set(answer, resolve);
      child.send(message);
      void exited.then(() => reject(new Error(`the emulator process exited before answering ${message.type}`)));
    });
  const started = await ask({ type: 'start', options, writing }, 'started');
  return {
    url: started.url,
    apiKey: started.apiKey,
    report: () => ask({ type: 'report' }, 'report'),
    async stop() {
      if (child.exitCode !== null) return;
      await ask({ type: 'stop' }, 'stopped').catch(() => undefined);
      await exited;
    },
  };
}

async function serve() {
  const { startEmulator } = await import(distUrl('emulator/index.js'));
  let emulator;
  process.on('message', async (message) => {
    if (message.type === 'start') {
      const options = { ...message.options };
      if (message.writing !== undefined) {
        options.timing = { ...options.timing, writingMs: (request) => writingTimeOf(request.targetKeyword, message.writing) };
      }
      emulator = await startEmulator(options);
      process.send({ type: 'started', url: emulator.url, apiKey: emulator.apiKey });
    } else if (message.type === 'report') {
      let lastFinishAt = 0;
      for (const id of emulator.articleIds()) {
        const record = emulator.article(id);
        if (record?.status === 'finished') lastFinishAt = Math.max(lastFinishAt, record.updatedAt);
      }
      process.send({
        type: 'report',
        requests: emulator.requests.map(({ method, path, route, status, at, fault }) => ({ method, path, route, status, at, fault })),
        creations: emulator.ledger.creations.length,
        duplicates: emulator.ledger.duplicates().length,
        lastFinishAt,
      });
    } else if (message.type === 'stop') {
      await emulator?.stop();
      process.send({ type: 'stopped' }, () => process.exit(0));
    }
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await serve();
