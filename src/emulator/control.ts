// The handle `startEmulator` resolves with: inspecting articles, balances and secrets, and steering faults, timing and work.
import { statusRecord } from './article-output.js';
import { remainingCredits, remainingWords } from './balances.js';
import type { EmulatorContext } from './context.js';
import type { AccountBalance, RunningEmulator } from './running-emulator.js';
import { resolveTiming, writingTime } from './timing.js';

type Inspection = Pick<RunningEmulator, 'article' | 'articleIds' | 'balances' | 'webhookSecret'>;
type Controls = Pick<RunningEmulator, 'setFaults' | 'setTiming' | 'advance' | 'pause' | 'resume' | 'settle' | 'reset'>;

function inspection(ctx: EmulatorContext): Inspection {
  return {
    article: (articleId) => {
      const record = ctx.articles.get(articleId);
      return record === undefined ? undefined : statusRecord(ctx, record);
    },
    articleIds: () => [...ctx.articles.keys()],
    balances: () =>
      ctx.accounts.all.map((account): AccountBalance => ({
        account: account.name,
        plan: account.plan,
        words: remainingWords(ctx.ledger, account),
        credits: remainingCredits(ctx.ledger, account),
      })),
    webhookSecret: (integrationId) => ctx.secrets.get(integrationId),
  };
}

/** Forget articles, ledger, requests, idempotency keys, deliveries and rate-limit state; reseed the faults. */
function reset(ctx: EmulatorContext): void {
  ctx.workers.clear();
  ctx.pendingDrafts.clear();
  ctx.articles.clear();
  ctx.ledger.clear();
  ctx.requests.length = 0;
  ctx.idempotency.restore([]);
  ctx.drafts.length = 0;
  ctx.webhooks.deliveries.length = 0;
  ctx.limiter?.reset();
  ctx.faults.reseed();
  ctx.persist();
}

function controls(ctx: EmulatorContext): Controls {
  return {
    setFaults: (config) => ctx.faults.replace(config ?? {}),
    setTiming: (next) => {
      ctx.timing = resolveTiming(next);
      for (const record of ctx.articles.values()) {
        if (record.status === 'queued' || record.status === 'processing') record.writingMs = writingTime(ctx.timing, record.request, record.id, ctx.timingRandom);
      }
      ctx.clock.wakeAll();
    },
    advance: () => ctx.clock.wakeAll(),
    pause: () => ctx.workers.pause(),
    resume: () => ctx.workers.resume(),
    settle: async () => {
      do {
        await ctx.workers.idle();
        await ctx.webhooks.idle();
      } while (ctx.workers.busy > 0);
    },
    reset: () => reset(ctx),
  };
}

/** The running emulator's handle over `ctx`, listening at `url`. */
export function runningEmulator(ctx: EmulatorContext, url: string, stop: () => Promise<void>): RunningEmulator {
  return {
    url,
    apiKey: ctx.firstApiKey,
    ledger: ctx.ledger,
    requests: ctx.requests,
    webhookDeliveries: ctx.webhooks.deliveries,
    drafts: ctx.drafts,
    ...inspection(ctx),
    ...controls(ctx),
    stop,
  };
}
