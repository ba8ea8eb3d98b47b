// How long articles wait and take to write: presets and explicit per-article rules.
import type { ArticleRequest } from '../contract/request-schema.js';
import { delayFor, type DelaySpec } from './faults.js';
import { EmulatorError } from './errors.js';
import type { Random } from './seeded-random.js';

export const TIMING_PRESETS = ['realtime', 'fast', 'instant'] as const;
export type TimingPreset = (typeof TIMING_PRESETS)[number];

export interface TimingOptions {
  /** Time an article stays `queued` before a worker may take it. */
  queueDelayMs?: DelaySpec;
  /**
   * Time from `processing` to `finished`, spread evenly over the writing steps: milliseconds, a
   * `{ minMs, maxMs }` range drawn from the seeded generator, or a function of the request.
   */
  writingMs?: DelaySpec | ((request: ArticleRequest, context: { articleId: string; random: () => number }) => number);
  /** First retry delay of a failed webhook delivery; doubles per attempt. */
  webhookRetryBaseMs?: number;
}

/** Preset timings: realtime-like for demos, fast for playing around, instant for tests. */
export const TIMING_PRESET_VALUES: Record<TimingPreset, Required<Omit<TimingOptions, 'writingMs'>> & { writingMs: DelaySpec }> = {
  realtime: { queueDelayMs: { minMs: 1000, maxMs: 4000 }, writingMs: { minMs: 20_000, maxMs: 60_000 }, webhookRetryBaseMs: 1000 },
  fast: { queueDelayMs: { minMs: 50, maxMs: 300 }, writingMs: { minMs: 1000, maxMs: 3000 }, webhookRetryBaseMs: 200 },
  instant: { queueDelayMs: 0, writingMs: 0, webhookRetryBaseMs: 10 },
};

export interface ResolvedTiming {
  queueDelayMs: DelaySpec;
  writingMs: NonNullable<TimingOptions['writingMs']>;
  webhookRetryBaseMs: number;
}

export function resolveTiming(timing: TimingPreset | TimingOptions | undefined): ResolvedTiming {
  if (timing === undefined) return { ...TIMING_PRESET_VALUES.fast };
  if (typeof timing === 'string') {
    if (!(TIMING_PRESETS as readonly string[]).includes(timing)) {
      throw new EmulatorError('emulator_invalid_options', `Unknown timing "${timing}"; use ${TIMING_PRESETS.join(', ')} or { queueDelayMs, writingMs }.`);
    }
    return { ...TIMING_PRESET_VALUES[timing] };
  }
  const base = TIMING_PRESET_VALUES.instant;
  return {
    queueDelayMs: timing.queueDelayMs ?? base.queueDelayMs,
    writingMs: timing.writingMs ?? base.writingMs,
    webhookRetryBaseMs: timing.webhookRetryBaseMs ?? base.webhookRetryBaseMs,
  };
}

export function queueDelay(timing: ResolvedTiming, random: Random): number {
  return delayFor(timing.queueDelayMs, random.next());
}

export function writingTime(timing: ResolvedTiming, request: ArticleRequest, articleId: string, random: Random): number {
  const roll = random.next();
  const value = typeof timing.writingMs === 'function' ? timing.writingMs(request, { articleId, random: () => random.next() }) : delayFor(timing.writingMs, roll);
  return Number.isFinite(value) && value > 0 ? value : 0;
}
