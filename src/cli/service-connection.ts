// Reaching the article service from the command line: the key from ARTICLES_API_KEY only, the URL from --base-url or ARTICLES_API_URL.
import type { ArticleRetryInfo } from '../api/index.js';
import type { ArticleService } from '../service/article-service.js';
import type { FlagSpec, ParsedFlags } from './command-line.js';

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

/** Whether the environment or `--base-url` names a service at all (status shows the lock file only when not). */
export function serviceConfigured(env: NodeJS.ProcessEnv, flags: ParsedFlags): boolean {
  return [flags.string('base-url'), env.ARTICLES_API_URL, env.ARTICLES_API_KEY].some((value) => value !== undefined && value.trim() !== '');
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
  /** The service (a SyncClient): connected on its first request. */
  service: ArticleService;
  /** An embedded emulator writes placeholder articles (`--offline`). */
  offline: boolean;
  /** The service honours Idempotency-Key, so an `unknown` create can be repeated safely. */
  idempotentCreates: boolean;
  retries: RetryTally;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** The command and what it needs the service for: the message when it is not configured says so. */
  command: string;
  why: string;
  /** `--offline`: the embedded emulator, writing at once. */
  offline?: boolean;
  concurrency?: number | undefined;
  idempotentCreates?: boolean;
  /** Where to say that the service sent the API key back (it was removed first). */
  warn?: (message: string) => void;
}

/**
 * The service a command talks to: `--base-url` or ARTICLES_API_URL with ARTICLES_API_KEY (never a
 * flag), or with `offline` the embedded emulator (placeholder articles, free). A UsageError-coded
 * `service_not_configured` error says what is missing and how to set it. The client and its HTTP
 * stack are loaded here, only by a run that reaches the service: a command stopped by bad input
 * starts without them.
 */
export async function connect(env: NodeJS.ProcessEnv, flags: ParsedFlags, options: ConnectOptions): Promise<ServiceConnection> {
  const [{ ArticleService, secretEchoedWarning }, { chooseService }] = await Promise.all([import('../service/article-service.js'), import('../service/service-settings.js')]);
  // Placeholder articles offline: nothing is gained by making anyone wait for them.
  const settings = options.offline === true ? ({ mode: 'offline', timing: 'instant' } as const) : chooseService({ baseUrl: flags.string('base-url'), offlineWhenUnset: false, audience: 'cli', command: options.command, why: options.why, offlineFlag: options.command === 'sync' }, env);
  const retries = new RetryTally();
  const service = new ArticleService(settings, {
    ...(options.idempotentCreates === undefined ? {} : { idempotentCreates: options.idempotentCreates || settings.mode === 'offline' }),
    timeoutMs: requestTimeout(flags),
    concurrency: options.concurrency,
    onRetry: (info) => retries.record(info),
    onSecretEchoed: ({ where }) => options.warn?.(secretEchoedWarning(where)),
  });
  return { service, offline: settings.mode === 'offline', idempotentCreates: service.idempotentCreates, retries, close: () => service.close() };
}
