import { describe, expect, it } from 'vitest';
import { planSync, emptyLockFile, type SyncEvent } from '../../src/sync/index.js';
import { articleRequestSchema } from '../../src/contract/request-schema.js';
import { SyncReporter, type LoaderLogger } from '../../src/loader/sync-report.js';

function recorder(): LoaderLogger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
}

function spec(keyword: string) {
  return { slug: keyword.replace(/\s+/g, '-'), keyword, request: articleRequestSchema.parse({ targetKeyword: keyword }) };
}

const specs = Array.from({ length: 20 }, (_, index) => spec(`keyword ${index}`));
const plan = planSync(specs, emptyLockFile(), new Set());

describe('SyncReporter', () => {
  it('should announce a plan with work as one info line with the estimated words', () => {
    const logger = recorder();
    new SyncReporter(logger).onEvent({ type: 'plan', plan, lockFile: '/x/articles.lock.json' });
    expect(logger.lines).toEqual([{ level: 'info', message: expect.stringMatching(/^20 articles: 0 reused, 20 to create \(≈[\d,]+ words to bill\)$/) }]);
  });

  it('should keep a plan that only reuses out of the info log', () => {
    const logger = recorder();
    const lock = emptyLockFile();
    new SyncReporter(logger).onEvent({ type: 'plan', plan: planSync([], lock, new Set()), lockFile: '/x/articles.lock.json' });
    expect(logger.lines.filter((line) => line.level !== 'debug')).toEqual([]);
  });

  it('should write far fewer progress lines than there are polls, and one when the last article is ready', () => {
    const logger = recorder();
    let now = 0;
    const reporter = new SyncReporter(logger, { progressIntervalMs: 5_000, now: () => now });
    reporter.onEvent({ type: 'plan', plan, lockFile: '/x/articles.lock.json' });
    // 20 articles × 50 polls, one poll answer every 10 ms of the fake clock: 10 s in all.
    for (let poll = 1; poll <= 50; poll++) {
      for (const s of specs) {
        now += 10;
        const event: SyncEvent = { type: 'progress', slug: s.slug, articleId: 'a', status: 'processing', statusDetail: `step ${poll}`, progress: poll / 51 };
        reporter.onEvent(event);
      }
    }
    for (const s of specs) reporter.onEvent({ type: 'finished', slug: s.slug, articleId: 'a' });
    const progress = logger.lines.filter((line) => line.message.startsWith('writing:'));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThanOrEqual(4);
    expect(progress[0]!.message).toMatch(/^writing: 0 ready, 20 writing of 20 \(\d+%\)$/);
    expect(progress.at(-1)!.message).toBe('writing: 20 ready of 20');
  });

  it('should count failed articles apart from ready ones, so a run where all failed never reads as all ready', () => {
    const logger = recorder();
    const reporter = new SyncReporter(logger, { progressIntervalMs: 0 });
    const three = planSync(specs.slice(0, 3), emptyLockFile(), new Set());
    reporter.onEvent({ type: 'plan', plan: three, lockFile: '/x/articles.lock.json' });
    const error = { code: 'generation_failed', message: 'the service gave up' };
    reporter.onEvent({ type: 'finished', slug: specs[0]!.slug, articleId: 'a' });
    for (const s of specs.slice(1, 3)) reporter.onEvent({ type: 'failed', slug: s.slug, error } as SyncEvent);
    const progress = logger.lines.filter((line) => line.message.startsWith('writing:')).map((line) => line.message);
    expect(progress.at(-1)).toBe('writing: 1 ready, 2 failed of 3');
    expect(progress).not.toContain('writing: 3 ready of 3');
  });
});
