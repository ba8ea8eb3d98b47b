// Building an emulator's context from its options: accounts and webhook secrets, stores, faults, timing, workers, state file.
import { AccountRegistry, type DomainOptions, type IntegrationOptions } from './accounts.js';
import { ArticleWorkers, type ArticleRecord } from './article-store.js';
import { takeDraft } from './article-output.js';
import { settleArticle } from './article-settlement.js';
import { Clock } from './clock.js';
import { loadDomainsFile } from './config-file.js';
import type { EmulatorContext, StateSnapshot } from './context.js';
import { FaultSwitch } from './faults.js';
import { DEFAULT_IDEMPOTENCY_TTL_MS, IdempotencyStore } from './idempotency.js';
import { ImageUrlSigner } from './image-urls.js';
import { Ledger } from './ledger.js';
import { writeLive } from './live-article.js';
import { ModelWriter } from './model-writer/index.js';
import { accountOptionsOf, DEFAULT_MAX_BODY_BYTES, DEFAULT_SEED, rateLimitOf, validateOptions, type EmulatorOptions } from './options.js';
import { RateLimiter } from './rate-limiter.js';
import { createRandom } from './seeded-random.js';
import { STATE_FILE_VERSION, StateFile } from './state-file.js';
import { resolveTiming } from './timing.js';
import { WebhookSender } from './webhook-delivery.js';
import { generateWebhookSecret } from './webhook-signature.js';

/** The accounts, with a generated secret for each custom webhook that has none (read back with webhookSecret()). */
function buildAccounts(options: EmulatorOptions, sharedDomains: DomainOptions[]): Pick<EmulatorContext, 'accounts' | 'firstApiKey' | 'secrets'> {
  const secrets = new Map<string, string>();
  const withSecret = (integration: IntegrationOptions): IntegrationOptions => {
    if (integration.type !== 'custom_webhook') return integration;
    const secret = integration.secret ?? secrets.get(integration.id) ?? generateWebhookSecret();
    secrets.set(integration.id, secret);
    return { ...integration, secret };
  };
  const accountOptions = accountOptionsOf(options).map((account) => ({ ...account, integrations: account.integrations?.map(withSecret) }));
  const accounts = AccountRegistry.build(accountOptions, { domains: sharedDomains, integrations: (options.integrations ?? []).map(withSecret) });
  return { accounts, firstApiKey: accountOptions[0]?.apiKey as string, secrets };
}

/** The state file, when the options name one; it snapshots articles, ledger and idempotency keys. */
function stateFileOf(options: EmulatorOptions, parts: Pick<EmulatorContext, 'articles' | 'ledger' | 'idempotency'>): StateFile<StateSnapshot> | undefined {
  if (options.stateFile === undefined) return undefined;
  return new StateFile<StateSnapshot>(options.stateFile, () => ({
    version: STATE_FILE_VERSION,
    savedAt: Date.now(),
    articles: [...parts.articles.values()],
    ledger: parts.ledger.toJSON(),
    idempotency: parts.idempotency.entries(),
  }));
}

/** Validate the options and build the context. Nothing listens yet and no state is loaded. */
export async function createContext(options: EmulatorOptions): Promise<EmulatorContext> {
  validateOptions(options);
  const seed = String(options.seed ?? DEFAULT_SEED);
  const random = createRandom(seed);
  const sharedDomains: DomainOptions[] = typeof options.domains === 'string' ? await loadDomainsFile(options.domains) : (options.domains ?? []);
  const { accounts, firstApiKey, secrets } = buildAccounts(options, sharedDomains);
  const timing = resolveTiming(options.timing);
  const timingRandom = random.fork('timing');
  const failureRandom = random.fork('failure-steps');
  const faults = new FaultSwitch(options.faults ?? {}, random);
  const rateLimit = rateLimitOf(options);
  const clock = new Clock();
  const ledger = new Ledger();
  const articles = new Map<string, ArticleRecord>();
  const idempotency = new IdempotencyStore(options.idempotencyTtlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS);
  const stateFile = stateFileOf(options, { articles, ledger, idempotency });
  const modelWriter = options.writer === undefined ? undefined : new ModelWriter(options.writer);
  const persist = (): void => stateFile?.schedule();
  ledger.onChange(persist);
  const ctx: EmulatorContext = {
    options,
    accounts,
    firstApiKey,
    secrets,
    timing,
    timingRandom,
    failureRandom,
    faults,
    limiter: rateLimit === false ? undefined : new RateLimiter(rateLimit),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    signer: new ImageUrlSigner(seed),
    clock,
    ledger,
    requests: [],
    articles,
    drafts: [],
    idempotency,
    webhooks: new WebhookSender(clock, options.webhooks ?? {}, () => ctx.timing.webhookRetryBaseMs),
    pngCache: new Map(),
    pendingDrafts: new Map(),
    // The callbacks run only once articles are added, after the context is complete.
    workers: new ArticleWorkers({
      clock,
      // A model writer's concurrency protects its server: articles beyond it stay queued.
      workers: Math.min(options.workers ?? Number.POSITIVE_INFINITY, modelWriter?.settings.concurrency ?? Number.POSITIVE_INFINITY),
      draft: (record) => takeDraft(ctx, record),
      write: modelWriter === undefined ? undefined : (record, report, signal) => writeLive(ctx, modelWriter, record, report, signal),
      onChange: persist,
      onSettled: (record) => settleArticle(ctx, record),
    }),
    modelWriter,
    stateFile,
    persist,
    origin: '',
  };
  return ctx;
}
