// Reaching the article service from the command line: the key from ARTICLES_API_KEY only, the URL from --base-url or ARTICLES_API_URL.
import { createArticleClient, type ArticleClient, type ArticleRetryInfo } from '../api/index.js';
import type { FlagSpec, ParsedFlags } from './command-line.js';
import { UsageError } from './usage-error.js';

/** The flags of every command that talks to the service. */
export const SERVICE_FLAGS = {
  'base-url': { type: 'string' },
  'request-timeout': { type: 'string' },
} as const satisfies Record<string, FlagSpec>;

export const SERVICE_FLAG_HELP = `  --base-url <url>       The service's address (default: ARTICLES_API_URL)
  --request-timeout <d>  Longest one request may take, whole (connecting, headers,
                         body), e.g. 20s; after several in a row time out or are
                         refused, the run stops asking the service (default: the client's)`;

/** `--request-timeout` in ms, or undefined for the client's default. */
export function requestTimeout(flags: ParsedFlags): number | undefined {
  return flags.has('request-timeout') ? flags.duration('request-timeout', 0) : undefined;
}

/** Where the service is, as far as the environment and flags say. The key itself never leaves this module's callers' memory. */
export interface ServiceSettings {
  baseUrl: string | undefined;
  /** Set only from the ARTICLES_API_KEY environment variable. */
  apiKey: string | undefined;
}

export function serviceSettings(env: NodeJS.ProcessEnv, baseUrlFlag: string | undefined): ServiceSettings {
  const baseUrl = (baseUrlFlag ?? env.ARTICLES_API_URL)?.trim();
  const apiKey = env.ARTICLES_API_KEY?.trim();
  return { baseUrl: baseUrl === '' ? undefined : baseUrl, apiKey: apiKey === '' ? undefined : apiKey };
}

export function isConfigured(settings: ServiceSettings): boolean {
  return settings.baseUrl !== undefined || settings.apiKey !== undefined;
}

const howToConfigure = (command: string): string => `Set the service's address and your key in the environment:
  export ARTICLES_API_URL=https://<the service's base URL>
  export ARTICLES_API_KEY=<your key>        # never as a flag: it would land in shell history
To try it for free, run the local emulator in another terminal:
  npx astro-article-loader emulator
  ARTICLES_API_URL=http://127.0.0.1:4010 ARTICLES_API_KEY=emulator-dev-key npx astro-article-loader ${command}`;

/** The settings of a command that must talk to the service, or a UsageError saying what is missing and how to set it. */
export function requireService(settings: ServiceSettings, command: string, why: string, offlineHint = false): { baseUrl: string; apiKey: string } {
  const { baseUrl, apiKey } = settings;
  const offline = offlineHint ? '\nOr pass --offline to use an embedded emulator (placeholder articles, free), as the loader does without a key.' : '';
  if (baseUrl === undefined && apiKey === undefined) {
    throw new UsageError(`${why}, but no article service is configured.\n${howToConfigure(command)}${offline}`, 'service_not_configured');
  }
  if (apiKey === undefined) {
    throw new UsageError(`${why}, but ARTICLES_API_KEY is not set. Set it in the environment (never as a flag).\n${howToConfigure(command)}`, 'service_not_configured');
  }
  if (baseUrl === undefined) {
    throw new UsageError(`${why}, but the service's address is not set: set ARTICLES_API_URL or pass --base-url <url>.`, 'service_not_configured');
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`the service URL "${baseUrl}" (from --base-url or ARTICLES_API_URL) is not a URL; use e.g. http://127.0.0.1:4010.`, 'service_not_configured');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`the service URL "${baseUrl}" is not http(s); use e.g. https://api.example.com.`, 'service_not_configured');
  }
  return { baseUrl, apiKey };
}

/** Retries by kind, for one summary line instead of a line per retry. */
export class RetryTally {
  readonly byKind = new Map<string, number>();
  total = 0;

  record(info: ArticleRetryInfo): void {
    const kind = retryKind(info.reason);
    this.total += 1;
    this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1);
  }

  toJSON(): { total: number; byKind: Record<string, number> } {
    return { total: this.total, byKind: Object.fromEntries([...this.byKind].sort((a, b) => b[1] - a[1])) };
  }

  /** "3 retries (2 × HTTP 429, 1 × timeout)", or '' when there were none. */
  describe(): string {
    if (this.total === 0) return '';
    const kinds = [...this.byKind].sort((a, b) => b[1] - a[1]).map(([kind, count]) => `${count} × ${kind}`);
    return `${this.total} ${this.total === 1 ? 'retry' : 'retries'} (${kinds.join(', ')})`;
  }
}

function retryKind(reason: string): string {
  const status = /answered (\d{3})/.exec(reason);
  if (status !== null) return `HTTP ${status[1]}`;
  if (/no answer within/.test(reason)) return 'timeout';
  if (/JSON|empty|expected shape/.test(reason)) return 'unreadable answer';
  return 'network';
}

export interface ServiceConnection {
  client: ArticleClient;
  baseUrl: string;
  /** An embedded emulator started for this command (`--offline`). */
  offline: boolean;
  /** The service honours Idempotency-Key, so an `unknown` create can be repeated safely. */
  idempotentCreates: boolean;
  retries: RetryTally;
  close(): Promise<void>;
}

export interface ConnectOptions {
  concurrency?: number | undefined;
  timeoutMs?: number | undefined;
  idempotentCreates: boolean;
}

export function connect(target: { baseUrl: string; apiKey: string }, options: ConnectOptions): ServiceConnection {
  const retries = new RetryTally();
  const client = createArticleClient({
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    idempotentCreates: options.idempotentCreates,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    onRetry: (info) => retries.record(info),
  });
  return { client, baseUrl: target.baseUrl, offline: false, idempotentCreates: options.idempotentCreates, retries, close: () => client.close() };
}

/** Starts the embedded emulator on a free loopback port and connects to it, as the loader does without a key. */
export async function connectOffline(options: Omit<ConnectOptions, 'idempotentCreates'>): Promise<ServiceConnection> {
  const { startEmulator } = await import('../emulator/index.js');
  // Placeholder articles: nothing is gained by making anyone wait for them.
  const emulator = await startEmulator({ port: 0, timing: 'instant' });
  const connection = connect({ baseUrl: emulator.url, apiKey: emulator.apiKey }, { ...options, idempotentCreates: true });
  return {
    ...connection,
    offline: true,
    close: async () => {
      await connection.close();
      await emulator.stop();
    },
  };
}
