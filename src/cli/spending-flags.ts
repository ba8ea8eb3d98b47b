// The spending rules plan and sync share: budget, frozen mode (on under CI), explicit retries, the same defaults as the loader.
import { DEFAULT_BUDGET, frozenByDefault, monthlyCap, type ArticleAge, type LockFile, type SpendingRules, type SyncService } from '../sync/index.js';
import type { Manifest } from '../manifest/index.js';
import type { FlagSpec, ParsedFlags } from './command-line.js';
import { UsageError } from './usage-error.js';

export const SYNC_RULE_FLAGS = {
  budget: { type: 'string' },
  frozen: { type: 'boolean' },
  'no-frozen': { type: 'boolean' },
  'retry-failed': { type: 'boolean' },
  'retry-unknown': { type: 'boolean' },
  'idempotent-creates': { type: 'boolean' },
} as const satisfies Record<string, FlagSpec>;

export const SYNC_RULE_SELECTIONS = ['retry-failed', 'retry-unknown'] as const;

export const SYNC_RULE_HELP = `  --budget <n>           Most new (paid) articles one run may create (default ${DEFAULT_BUDGET});
                         more stops the run before any create
  --frozen, --no-frozen  Frozen: never create, fail listing what would be created
                         (default: on when CI is set, like npm ci)
  --retry-failed[=a,b]   Create failed articles again (each a new, paid article):
                         all of them, or the listed slugs
  --retry-unknown[=a,b]  Create again the articles whose create had an unknown
                         outcome, with the same idempotency key
  --idempotent-creates   The service honours Idempotency-Key (the emulator does):
                         unknown creates are repeated automatically, safely`;

export interface SyncRules {
  budget: number;
  /** The manifest's `budget.perMonth` (set by `withManifestBudget`); absent: no monthly cap. */
  perMonth?: number;
  frozen: boolean;
  /** Why frozen is on or off: a flag, the CI variable, or the default. */
  frozenSource: 'flag' | 'CI' | 'default';
  retryFailed: true | string[] | undefined;
  retryUnknown: true | string[] | undefined;
  idempotentCreates: boolean;
  /** Finished articles to create again on purpose: set by `regenerate`, never by a flag of sync. */
  regenerate?: string[];
  /** Due articles to refresh within the budget: set by `sync --refresh` and `regenerate --due` (see refresh-run.ts). */
  refresh?: ArticleAge[];
}

export function syncRules(flags: ParsedFlags, env: NodeJS.ProcessEnv): SyncRules {
  if (flags.boolean('frozen') && flags.boolean('no-frozen')) throw new UsageError('--frozen and --no-frozen contradict each other; pass one.');
  const explicit = flags.boolean('frozen') ? true : flags.boolean('no-frozen') ? false : undefined;
  const onCi = frozenByDefault(env);
  return {
    budget: flags.wholeNumber('budget', 0, DEFAULT_BUDGET),
    frozen: explicit ?? onCi,
    frozenSource: explicit !== undefined ? 'flag' : onCi ? 'CI' : 'default',
    retryFailed: flags.selection('retry-failed'),
    retryUnknown: flags.selection('retry-unknown'),
    idempotentCreates: flags.boolean('idempotent-creates'),
  };
}

/**
 * The manifest's caps in the rules: `budget.perRun` is the run's budget unless `--budget` gives one, and
 * `budget.perMonth` holds for every command that creates.
 */
export function withManifestBudget(rules: SyncRules, flags: ParsedFlags, manifest: Pick<Manifest, 'budget'>): SyncRules {
  if (!flags.has('budget') && manifest.budget?.perRun !== undefined) rules.budget = manifest.budget.perRun;
  if (manifest.budget?.perMonth !== undefined) rules.perMonth = manifest.budget.perMonth;
  return rules;
}

/** The rules the engine checks a plan against (frozen, the budget, the monthly cap with the lock file's tally now). */
export function spendingRulesOf(rules: SyncRules, lock: Pick<LockFile, 'spent'>, service: SyncService): SpendingRules {
  return { frozen: rules.frozen, budget: rules.budget, monthly: monthlyCap(rules.perMonth, lock, service === 'emulator') };
}

/** The planner's options for these rules. */
export function planOptionsOf(rules: SyncRules): { retryFailed?: true | string[]; retryUnknown?: true | string[]; regenerate?: string[]; refresh?: ArticleAge[]; idempotentCreates: boolean } {
  return {
    ...(rules.retryFailed === undefined ? {} : { retryFailed: rules.retryFailed }),
    ...(rules.retryUnknown === undefined ? {} : { retryUnknown: rules.retryUnknown }),
    ...(rules.regenerate === undefined ? {} : { regenerate: rules.regenerate }),
    ...(rules.refresh === undefined ? {} : { refresh: rules.refresh }),
    idempotentCreates: rules.idempotentCreates,
  };
}

/**
 * `--retry-failed=<slug>` names articles that failed. One that did not is an error, not a silent
 * no-op: a finished article is regenerated on purpose with `regenerate`, and one never created is
 * created by sync anyway.
 */
export function checkRetryFailed(rules: SyncRules, lock: LockFile): void {
  if (!Array.isArray(rules.retryFailed)) return;
  for (const slug of rules.retryFailed) {
    const status = lock.articles[slug]?.status;
    if (status === 'failed') continue;
    const advice =
      status === 'finished'
        ? `to pay for a new article on purpose, run: astro-article-loader regenerate ${slug}`
        : status === undefined
          ? 'it has no article yet; sync creates it without the flag'
          : `it is ${status}; ${status === 'unknown' ? 'see adopt and --retry-unknown' : 'sync waits for it without the flag'}`;
    throw new UsageError(`--retry-failed=${slug}: "${slug}" is not a failed article; ${advice}.`);
  }
}
