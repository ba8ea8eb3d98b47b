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
