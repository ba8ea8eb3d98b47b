// Emulator accounts: API keys with a plan and word/credit balances, found in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import { EmulatorError } from './errors.js';

/** Plans the emulator knows; the spec names the professional plan as the one with internal links. */
export const PLANS = ['basic', 'professional', 'business'] as const;
export type Plan = (typeof PLANS)[number];
const PLANS_WITH_INTERNAL_LINKS: ReadonlySet<Plan> = new Set(['professional', 'business']);

/** The development key used when no key is configured. It is public and protects nothing. */
export const DEVELOPMENT_API_KEY = 'emulator-dev-key';

export interface InternalLinkPage {
  url: string;
  title?: string;
  /** Phrases that link to this page; the title is used when none are given. */
  keywords?: string[];
}

export interface DomainOptions {
  id: string;
  pages: InternalLinkPage[];
}

export interface IntegrationOptions {
  id: string;
  /** `custom_webhook`: signed delivery to `url`. `cms`: a draft is recorded (see `drafts`). */
  type: 'custom_webhook' | 'cms';
  /** Endpoint of a custom webhook integration. */
  url?: string;
  /** `whsec_<base64>`; generated when omitted (read it back with `webhookSecret(id)`). */
  secret?: string;
}

export interface AccountOptions {
  apiKey: string;
  /** Name used in the ledger, the state file and logs (never the key). Default `account-<n>`. */
  name?: string;
  /** Default 'professional'. */
  plan?: Plan;
  /** Word balance for articles; default unlimited. */
  words?: number;
  /** Credit balance for internal links; default unlimited. */
  credits?: number;
  /** Domains only this account may link to (on top of the shared ones). */
  domains?: DomainOptions[];
  /** Integrations only this account may use (on top of the shared ones). */
  integrations?: IntegrationOptions[];
}

export interface Account {
  name: string;
  plan: Plan;
  /** Configured balances; what is left is these minus what the ledger has spent. */
  words: number;
  credits: number;
  domains: Map<string, DomainOptions>;
  integrations: Map<string, IntegrationOptions & { secret?: string }>;
  readonly keyDigest: Buffer;
}

export function planAllowsInternalLinks(plan: Plan): boolean {
  return PLANS_WITH_INTERNAL_LINKS.has(plan);
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** The configured accounts; looks up a bearer token without revealing its length or a prefix. */
export class AccountRegistry {
  readonly #accounts: Account[];

  constructor(accounts: Account[]) {
    this.#accounts = accounts;
  }

  static build(options: AccountOptions[], shared: { domains: DomainOptions[]; integrations: IntegrationOptions[] }): AccountRegistry {
    if (options.length === 0) throw new EmulatorError('emulator_invalid_options', 'The emulator needs at least one account: pass `accounts` or `apiKey`, or leave both out for the development key.');
    const names = new Set<string>();
    const digests: Buffer[] = [];
    const accounts = options.map((option, index) => {
      const name = option.name ?? `account-${index + 1}`;
      if (typeof option.apiKey !== 'string' || option.apiKey.length === 0) {
        throw new EmulatorError('emulator_invalid_options', `Emulator account "${name}" has no apiKey: give each account a non-empty key.`);
      }
      if (names.has(name)) throw new EmulatorError('emulator_invalid_options', `Two emulator accounts are named "${name}": account names must be unique.`);
      names.add(name);
      const plan = option.plan ?? 'professional';
      if (!(PLANS as readonly string[]).includes(plan)) {
        throw new EmulatorError('emulator_invalid_options', `Emulator account "${name}" has plan "${String(plan)}"; use one of ${PLANS.join(', ')}.`);
      }
      const keyDigest = digest(option.apiKey);
      if (digests.some((d) => d.equals(keyDigest))) {
        throw new EmulatorError('emulator_invalid_options', `Emulator account "${name}" reuses another account's API key: keys must be unique.`);
      }
      digests.push(keyDigest);
      const domains = new Map<string, DomainOptions>();
      for (const domain of [...shared.domains, ...(option.domains ?? [])]) domains.set(domain.id, domain);
      const integrations = new Map<string, IntegrationOptions>();
      for (const integration of [...shared.integrations, ...(option.integrations ?? [])]) integrations.set(integration.id, integration);
      return {
        name,
        plan,
        words: balance(option.words, name, 'words'),
        credits: balance(option.credits, name, 'credits'),
        domains,
        integrations,
        keyDigest,
      } satisfies Account;
    });
    return new AccountRegistry(accounts);
  }

  /** The account whose key equals `apiKey`; every account is compared, in constant time. */
  authenticate(apiKey: string): Account | undefined {
    const candidate = digest(apiKey);
    let found: Account | undefined;
    for (const account of this.#accounts) {
      if (timingSafeEqual(candidate, account.keyDigest) && found === undefined) found = account;
    }
    return found;
  }

  byName(name: string): Account | undefined {
    return this.#accounts.find((account) => account.name === name);
  }

  get all(): readonly Account[] {
    return this.#accounts;
  }
}

function balance(value: number | null | undefined, name: string, what: string): number {
  if (value === undefined || value === null) return Number.POSITIVE_INFINITY;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new EmulatorError('emulator_invalid_options', `Emulator account "${name}" has ${what} ${String(value)}; use a number ≥ 0, or leave it out for unlimited.`);
  }
  return value;
}
