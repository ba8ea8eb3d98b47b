// The fault campaign's shared record: canary secrets, every temp dir, log line and error, and the final search for the secrets in all of them.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { articleRequestSchema } from '../../src/api/index.js';
import { generateWebhookSecret, startEmulator, verifyWebhook, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import type { SyncEvent, SyncSpec } from '../../src/sync/index.js';

/** The webhook integration every campaign request names, so finished articles trigger signed deliveries. */
export const WEBHOOK_INTEGRATION = 'campaign-hook';

export interface SecretHit {
  where: string;
  secret: 'api key' | 'webhook secret';
}

/**
 * One per campaign run. Scenarios create their temp dirs, emulators and logs through it, so the
 * last scenario can search everything the campaign wrote or printed for the two secrets.
 */
export class Campaign {
  /** A distinctive live-looking key: any occurrence anywhere is a leak, never a coincidence. */
  readonly apiKey = `sk_live_canary_${randomBytes(12).toString('hex')}`;
  readonly webhookSecret = generateWebhookSecret();
  readonly dirs: string[] = [];
  readonly logs: string[] = [];
  readonly errors: unknown[] = [];
  /** Webhook deliveries received and verified with the secret. */
  deliveries = 0;
  #receiver: Server | undefined;
  #receiverUrl: string | undefined;
  readonly #emulators: RunningEmulator[] = [];

  async tempDir(name: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), `aal-faults-${name}-`));
    this.dirs.push(dir);
    return dir;
  }

  log(line: string): void {
    this.logs.push(line);
  }

  /** Keeps an error for the secret search, and returns it for assertions. */
  caught<T>(error: T): T {
    this.errors.push(error);
    return error;
  }

  /** A sync `onEvent` that keeps every event as a log line (what the loader and the CLI would print from). */
  eventLogger(into?: SyncEvent[]): (event: SyncEvent) => void {
    return (event) => {
      into?.push(event);
      this.log(`event ${JSON.stringify(event, (key, value: unknown) => (key === 'plan' ? undefined : value))}`);
    };
  }

  /** Specs whose requests name the webhook integration. */
  specs(keywords: readonly string[]): SyncSpec[] {
    return keywords.map((keyword) => ({
      slug: keyword.replace(/\s+/g, '-'),
      keyword,
      request: articleRequestSchema.parse({ targetKeyword: keyword, integrationId: WEBHOOK_INTEGRATION }),
    }));
  }

  /** Receives the signed webhook deliveries on 127.0.0.1 and verifies each with the secret. */
  async webhookUrl(): Promise<string> {
    if (this.#receiverUrl !== undefined) return this.#receiverUrl;
    this.#receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        try {
          verifyWebhook({ payload: body, headers: req.headers, secret: this.webhookSecret });
          this.deliveries += 1;
          this.log(`webhook delivery verified (${body.length} bytes)`);
          res.writeHead(204).end();
        } catch (error) {
          this.caught(error);
          this.log(`webhook delivery rejected: ${(error as Error).message}`);
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.#receiver!.listen(0, '127.0.0.1', resolve));
    this.#receiverUrl = `http://127.0.0.1:${(this.#receiver.address() as AddressInfo).port}/hook`;
    return this.#receiverUrl;
  }

  /** An emulator with the canary key and the signed webhook integration; its request lines go to the log. */
  async emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
    const emulator = await startEmulator({
      apiKey: this.apiKey,
      rateLimit: false,
      timing: 'instant',
      integrations: [{ id: WEBHOOK_INTEGRATION, type: 'custom_webhook', url: await this.webhookUrl(), secret: this.webhookSecret }],
      webhooks: { maxAttempts: 2, timeoutMs: 2_000 },
      onRequest: (line) => this.log(`emulator ${line}`),
      ...options,
    });
    this.#emulators.push(emulator);
    return emulator;
  }

  /** Every file under the campaign's temp dirs, the log lines and the errors, searched for both secrets. */
  async searchSecrets(): Promise<{ hits: SecretHit[]; files: number; bytes: number; lines: number; errors: number }> {
    const needles: [SecretHit['secret'], string][] = [
      ['api key', this.apiKey],
      ['webhook secret', this.webhookSecret],
      // The secret's key material on its own, in case something strips the prefix.
      ['webhook secret', this.webhookSecret.slice('whsec_'.length)],
    ];
    const hits: SecretHit[] = [];
    const check = (text: string, where: string): void => {
      for (const [secret, needle] of needles) if (text.includes(needle)) hits.push({ where, secret });
    };
    let files = 0;
    let bytes = 0;
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const path = join(dir, entry.name);
        check(entry.name, `file name ${path}`);
        if (entry.isDirectory()) await walk(path);
        else if (entry.isFile()) {
          const content = await readFile(path);
          files += 1;
          bytes += content.length;
          check(content.toString('latin1'), path);
        }
      }
    };
    for (const dir of this.dirs) await walk(dir);
    this.logs.forEach((line, index) => check(line, `log line ${index}: ${line.slice(0, 120)}`));
    this.errors.forEach((error, index) => check(describeError(error), `error ${index}: ${String((error as Error)?.message ?? error).slice(0, 120)}`));
    return { hits, files, bytes, lines: this.logs.length, errors: this.errors.length };
  }

  async close(): Promise<void> {
    await Promise.all(this.#emulators.map((emulator) => emulator.stop()));
    await new Promise<void>((resolve) => (this.#receiver === undefined ? resolve() : this.#receiver.close(() => resolve())));
    this.#receiver?.closeAllConnections();
    await Promise.all(this.dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

/** Everything an error carries that a log or a reporter could show: message, stack, own properties, causes. */
export function describeError(error: unknown): string {
  const parts = [inspect(error, { depth: 8, showHidden: true, getters: true })];
  try {
    parts.push(JSON.stringify(error));
  } catch {
    // Circular: inspect above already has it all.
  }
  let cause = (error as { cause?: unknown })?.cause;
  for (let depth = 0; cause !== undefined && depth < 8; depth++) {
    parts.push(inspect(cause, { depth: 8, showHidden: true }));
    cause = (cause as { cause?: unknown })?.cause;
  }
  return parts.join('\n');
}
