import { describe, expect, it } from 'vitest';
import { articleRequestSchema } from '../../src/api/index.js';
import {
  describeCreateReason,
  estimateWords,
  explicitParameters,
  planSync,
  requestHash,
  WORD_ESTIMATE_TABLE,
  type LockEntry,
  type LockFile,
  type SyncSpec,
} from '../../src/sync/index.js';

const OUT_A = `sha256:${'a'.repeat(64)}`;
const OUT_B = `sha256:${'b'.repeat(64)}`;

function spec(slug: string, extra: Record<string, unknown> = {}): SyncSpec {
  return { slug, keyword: slug.replace(/-/g, ' '), request: articleRequestSchema.parse({ targetKeyword: slug.replace(/-/g, ' '), ...extra }) };
}

function entry(s: SyncSpec, patch: Partial<LockEntry> = {}): LockEntry {
  return {
    keyword: s.keyword,
    status: 'finished',
    hash: requestHash(s.request),
    articleId: `id-${s.slug}`,
    attempt: 1,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    output: OUT_A,
    request: explicitParameters(s.request),
    ...patch,
  };
}

function lockOf(entries: Record<string, LockEntry>): LockFile {
  return { version: 1, articles: entries };
}

const actionOf = (plan: ReturnType<typeof planSync>, slug: string) => plan.articles.find((a) => a.slug === slug)?.action;

describe('planSync', () => {
  it('should create an article that has no lock entry, as a new entry', () => {
    const plan = planSync([spec('new-one')], lockOf({}), new Set());
    expect(plan.creates.map((c) => [c.slug, c.reason])).toEqual([['new-one', { kind: 'new' }]]);
    expect(plan.creates[0]!.attempt).toBe(1);
  });

  it('should reuse a finished article with the same hash whose output is cached', () => {
    const s = spec('kept');
    expect(actionOf(planSync([s], lockOf({ kept: entry(s) }), new Set([OUT_A])), 'kept')).toBe('reuse');
  });

  it('should fetch (not create) a finished article whose output is not in the cache', () => {
    const s = spec('fresh-clone');
    const plan = planSync([s], lockOf({ 'fresh-clone': entry(s) }), new Set());
    expect(actionOf(plan, 'fresh-clone')).toBe('fetch');
    expect(plan.creates).toEqual([]);
  });

  it('should wait for a pending article with the same hash', () => {
    const s = spec('in-flight');
    const { output: _o, ...pending } = entry(s, { status: 'pending' });
    expect(actionOf(planSync([s], lockOf({ 'in-flight': pending }), new Set()), 'in-flight')).toBe('wait');
  });

  it('should create again when the hash changed, listing the changed fields', () => {
    const before = spec('edited');
    const after = spec('edited', { articleLength: 'long', includeFaq: true });
    const plan = planSync([after], lockOf({ edited: entry(before) }), new Set([OUT_A]));
    expect(plan.creates[0]!.reason).toEqual({
      kind: 'changed',
      fromHash: requestHash(before.request),
      changes: [
        { path: 'articleLength', from: 'default', to: 'long' },
        { path: 'includeFaq', from: false, to: true },
      ],
    });
    expect(describeCreateReason(plan.creates[0]!.reason!)).toBe('changed: articleLength "default" → "long", includeFaq false → true');
  });

  it('should not re-create a failed article unless retryFailed names it, and then with the next attempt', () => {
    const s = spec('broken');
    const lock = lockOf({ broken: entry(s, { status: 'failed', output: undefined, attempt: 2, error: { code: 'article_failed', message: 'x' } }) });
    expect(actionOf(planSync([s], lock, new Set()), 'broken')).toBe('failed');
    expect(actionOf(planSync([s], lock, new Set(), { retryFailed: ['other'] }), 'broken')).toBe('failed');
    const retried = planSync([s], lock, new Set(), { retryFailed: ['broken'] });
    expect(retried.creates[0]!.attempt).toBe(3);
  });

  it('should surface an unknown create and retry it only when asked or when creates are idempotent, with the same attempt', () => {
    const s = spec('maybe-billed');
    const { articleId: _id, output: _o, ...unknown } = entry(s, { status: 'unknown', error: { code: 'create_outcome_unknown', message: 'x' } });
    const lock = lockOf({ 'maybe-billed': unknown });
    expect(actionOf(planSync([s], lock, new Set()), 'maybe-billed')).toBe('unknown');
    expect(planSync([s], lock, new Set(), { retryUnknown: true }).creates[0]!.attempt).toBe(1);
    expect(actionOf(planSync([s], lock, new Set(), { idempotentCreates: true }), 'maybe-billed')).toBe('create');
  });

  it('should keep entries that left the manifest as orphans, sorted', () => {
    const a = spec('a-kept');
    const plan = planSync([a], lockOf({ 'z-gone': entry(spec('z-gone')), 'b-gone': entry(spec('b-gone')), 'a-kept': entry(a) }), new Set([OUT_A]));
    expect(plan.orphans.map((o) => o.slug)).toEqual(['b-gone', 'z-gone']);
    expect(plan.counts.orphan).toBe(2);
  });

  it('should restore the earlier finished article when the request goes back to it', () => {
    const original = spec('flip');
    const edited = spec('flip', { articleLength: 'long' });
    const { output: _o, ...pendingEdit } = entry(edited, {
      status: 'pending',
      articleId: 'id-new',
      previous: { hash: requestHash(original.request), articleId: 'id-old', output: OUT_B },
    });
    const plan = planSync([original], lockOf({ flip: pendingEdit }), new Set([OUT_B]));
    expect(actionOf(plan, 'flip')).toBe('restore');
    expect(plan.creates).toEqual([]);
  });

  it('should count actions and sum the estimated words of the creates', () => {
    const plan = planSync([spec('one'), spec('two', { articleLength: 'long' })], lockOf({}), new Set());
    expect(plan.counts.create).toBe(2);
    expect(plan.estimatedWords).toBe(WORD_ESTIMATE_TABLE.articleLength.default + WORD_ESTIMATE_TABLE.articleLength.long);
  });
});

describe('estimateWords', () => {
  it('should price images by image model', () => {
    const fast = estimateWords(articleRequestSchema.parse({ targetKeyword: 'k', multimediaOption: 'images', maxImages: 3 }));
    const medium = estimateWords(articleRequestSchema.parse({ targetKeyword: 'k', multimediaOption: 'images', maxImages: 3, imageModel: 'model-image-2-medium' }));
    expect(fast.imageWords).toBe(150);
    expect(medium.imageWords).toBe(600);
  });

  it('should count custom sections, list items and retail products', () => {
    expect(estimateWords(articleRequestSchema.parse({ targetKeyword: 'k', articleLength: 'custom', numberOfSections: 8 })).textWords).toBe(8 * 300 + 400);
    expect(estimateWords(articleRequestSchema.parse({ targetKeyword: '15 best mugs', articleType: 'listicle', enableSupplementalInformation: false })).textWords).toBe(15 * 150 + 300);
    expect(estimateWords(articleRequestSchema.parse({ targetKeyword: 'k', articleType: 'listicle', enableAutomaticLength: false, numberOfItems: 4, enableSupplementalInformation: false })).textWords).toBe(4 * 150 + 300);
    expect(estimateWords(articleRequestSchema.parse({ targetKeyword: 'k', articleType: 'retail_product_roundup', numRetailProducts: 5 })).textWords).toBe(5 * 250 + 400);
  });

  it('should flag images of a model the spec gives no price for', () => {
    const estimate = estimateWords(articleRequestSchema.parse({ targetKeyword: 'k', multimediaOption: 'images', maxImages: 2, imageModel: 'compact-image-2' }));
    expect(estimate).toMatchObject({ imageWords: 0, unpricedImages: 2 });
  });
});

describe('planSync with entries written by the emulator', () => {
  const placeholder = (s: SyncSpec, patch: Partial<LockEntry> = {}) => entry(s, { emulator: true, ...patch });

  it('should create an emulator-written article again against the real service, saying why', () => {
    const s = spec('offline-draft');
    const plan = planSync([s], lockOf({ 'offline-draft': placeholder(s) }), new Set([OUT_A]));
    expect(plan.creates.map((c) => [c.slug, c.reason, c.attempt])).toEqual([['offline-draft', { kind: 'emulator' }, 1]]);
    expect(describeCreateReason(plan.creates[0]!.reason!)).toBe('written by the offline emulator: placeholder text, not a paid article');
  });

  it('should create pending, failed and unknown emulator-written entries again against the real service, never wait for them', () => {
    const specs = [spec('was-pending'), spec('was-failed'), spec('was-unknown')];
    const lock = lockOf({
      'was-pending': placeholder(specs[0]!, { status: 'pending', output: undefined }),
      'was-failed': placeholder(specs[1]!, { status: 'failed', output: undefined }),
      'was-unknown': placeholder(specs[2]!, { status: 'unknown', articleId: undefined, output: undefined }),
    });
    const plan = planSync(specs, lock, new Set());
    expect(plan.articles.map((a) => [a.action, a.reason?.kind])).toEqual([
      ['create', 'emulator'],
      ['create', 'emulator'],
      ['create', 'emulator'],
    ]);
  });

  it('should reuse an emulator-written article when the sync talks to the emulator', () => {
    const s = spec('offline-draft');
    expect(actionOf(planSync([s], lockOf({ 'offline-draft': placeholder(s) }), new Set([OUT_A]), { service: 'emulator' }), 'offline-draft')).toBe('reuse');
  });

  it('should reuse real articles when the sync talks to the emulator', () => {
    const s = spec('paid-one');
    expect(actionOf(planSync([s], lockOf({ 'paid-one': entry(s) }), new Set([OUT_A]), { service: 'emulator' }), 'paid-one')).toBe('reuse');
  });

  it('should not restore an emulator-written earlier article against the real service', () => {
    const original = spec('reverted');
    const edited = spec('reverted', { articleLength: 'long' });
    const lock = lockOf({
      reverted: entry(edited, { status: 'pending', output: undefined, previous: { hash: requestHash(original.request), articleId: 'id-old', output: OUT_B, emulator: true } }),
    });
    expect(planSync([original], lock, new Set([OUT_B])).articles[0]).toMatchObject({ action: 'create', reason: { kind: 'emulator' } });
    expect(actionOf(planSync([original], lock, new Set([OUT_B]), { service: 'emulator' }), 'reverted')).toBe('restore');
  });

  it('should create a failed emulator-written article again against the emulator, unasked (it costs nothing)', () => {
    const s = spec('free-retry');
    const plan = planSync([s], lockOf({ 'free-retry': placeholder(s, { status: 'failed', output: undefined }) }), new Set(), { service: 'emulator' });
    expect(plan.creates.map((c) => [c.slug, c.reason?.kind, c.attempt])).toEqual([['free-retry', 'retry-failed', 2]]);
  });

  it('should not repeat an unknown real create against the emulator, even with idempotent creates', () => {
    const s = spec('real-unknown');
    const lock = lockOf({ 'real-unknown': entry(s, { status: 'unknown', articleId: undefined, output: undefined }) });
    expect(actionOf(planSync([s], lock, new Set(), { service: 'emulator', idempotentCreates: true }), 'real-unknown')).toBe('unknown');
    expect(actionOf(planSync([s], lock, new Set(), { idempotentCreates: true }), 'real-unknown')).toBe('create');
  });
});
