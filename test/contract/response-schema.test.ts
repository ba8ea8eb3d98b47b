// The response schemas against the spec: status record, creation result, internal-link request and answers, error bodies.
import { describe, expect, it } from 'vitest';
import {
  ARTICLE_STATUSES,
  INTERNAL_LINK_FORMATS,
  articleStatusSchema,
  createArticleResultSchema,
  errorBodySchema,
  internalLinkRequestSchema,
  internalLinksJsonSchema,
} from '../../src/contract/response-schema.js';
import { ARTICLE_ID, finishedRecord, processingRecord } from '../api/client-fixtures.js';

const OUTPUT = { html: '<h1>Boots</h1>', polishedHtml: null };

function record(status: string, withOutput: boolean): Record<string, unknown> {
  const { output: _output, ...rest } = finishedRecord();
  return { ...rest, status, ...(withOutput ? { output: OUTPUT } : {}) };
}

function paths(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }): string[] {
  return result.error?.issues.map((issue) => issue.path.join('.')) ?? [];
}

describe('articleStatusSchema', () => {
  it('should spell the statuses as the spec does', () => {
    expect(ARTICLE_STATUSES).toEqual(['queued', 'processing', 'finished', 'failed']);
  });

  it.each(ARTICLE_STATUSES.filter((status) => status !== 'finished'))('should accept %s without output', (status) => {
    expect(articleStatusSchema.safeParse(record(status, false)).success).toBe(true);
  });

  it.each(ARTICLE_STATUSES.filter((status) => status !== 'finished'))('should reject %s with output, naming output', (status) => {
    const result = articleStatusSchema.safeParse(record(status, true));

    expect(paths(result)).toEqual(['output']);
  });

  it('should accept finished with output', () => {
    expect(articleStatusSchema.safeParse(record('finished', true)).success).toBe(true);
  });

  it('should reject finished without output, naming output', () => {
    expect(paths(articleStatusSchema.safeParse(record('finished', false)))).toEqual(['output']);
  });

  it('should accept a string polishedHtml', () => {
    const result = articleStatusSchema.safeParse({ ...finishedRecord(), output: { html: '<p>a</p>', polishedHtml: '<p>b</p>' } });

    expect(result.success && result.data.status === 'finished' && result.data.output.polishedHtml).toBe('<p>b</p>');
  });

  it('should accept a null polishedHtml', () => {
    const result = articleStatusSchema.safeParse(finishedRecord());

    expect(result.success && result.data.status === 'finished' && result.data.output.polishedHtml).toBeNull();
  });

  it.each(['html', 'polishedHtml'])('should reject an output without %s', (field) => {
    const output: Record<string, unknown> = { ...OUTPUT };
    delete output[field];

    expect(paths(articleStatusSchema.safeParse({ ...finishedRecord(), output }))).toEqual([`output.${field}`]);
  });

  it('should reject a wrong status value, listing the valid ones', () => {
    const result = articleStatusSchema.safeParse({ ...processingRecord(), status: 'done' });

    expect(paths(result)).toEqual(['status']);
    expect(result.error?.issues[0]?.message).toContain('"queued", "processing", "finished", "failed"');
  });

  it.each(['config', 'status', 'statusDetail', 'updatedAt', 'progress'])('should reject a record without %s', (field) => {
    const incomplete = processingRecord();
    delete incomplete[field];

    expect(paths(articleStatusSchema.safeParse(incomplete))).toEqual([field]);
  });

  it('should reject a config without targetKeyword', () => {
    expect(paths(articleStatusSchema.safeParse({ ...processingRecord(), config: {} }))).toEqual(['config.targetKeyword']);
  });

  it.each([-0.1, 1.1])('should reject progress %d outside 0..1', (progress) => {
    expect(paths(articleStatusSchema.safeParse({ ...processingRecord(), progress }))).toEqual(['progress']);
  });

  it("should keep a failed record's error value", () => {
    const failed = articleStatusSchema.safeParse({ ...processingRecord(), status: 'failed', error: { code: 'writer_failed', message: 'x' } });

    expect(failed.success && failed.data.error).toEqual({ code: 'writer_failed', message: 'x' });
  });

  it('should keep config members the spec does not show', () => {
    const result = articleStatusSchema.safeParse({ ...processingRecord(), config: { targetKeyword: 'k', articleType: 'listicle' } });

    expect(result.success && result.data.config).toEqual({ targetKeyword: 'k', articleType: 'listicle' });
  });
});

describe('createArticleResultSchema', () => {
  it('should accept a UUID articleId', () => {
    expect(createArticleResultSchema.parse({ articleId: ARTICLE_ID }).articleId).toBe(ARTICLE_ID);
  });

  it.each([{ articleId: 'abc' }, { articleId: 42 }, {}])('should reject %j, naming articleId', (body) => {
    expect(paths(createArticleResultSchema.safeParse(body))).toEqual(['articleId']);
  });
});

describe('internalLinkRequestSchema', () => {
  it.each(INTERNAL_LINK_FORMATS)('should accept format %s', (format) => {
    expect(internalLinkRequestSchema.safeParse({ content: 'Boots', domainId: 'dom-1', format }).success).toBe(true);
  });

  it('should have html, the documented value, among the formats', () => {
    expect(INTERNAL_LINK_FORMATS).toEqual(['html', 'markdown', 'json']);
  });

  it('should default format to html', () => {
    expect(internalLinkRequestSchema.parse({ content: 'Boots', domainId: 'dom-1' }).format).toBe('html');
  });

  it.each([
    { case: 'a wrong format', body: { content: 'Boots', domainId: 'dom-1', format: 'pdf' }, path: 'format' },
    { case: 'empty content', body: { content: '', domainId: 'dom-1' }, path: 'content' },
    { case: 'a blank domainId', body: { content: 'Boots', domainId: '  ' }, path: 'domainId' },
    { case: 'a missing domainId', body: { content: 'Boots' }, path: 'domainId' },
    { case: 'an unknown key', body: { content: 'Boots', domainId: 'dom-1', maxLinks: 5 }, path: '' },
  ])('should reject $case', ({ body, path }) => {
    expect(paths(internalLinkRequestSchema.safeParse(body))).toEqual([path]);
  });
});

describe('internalLinksJsonSchema', () => {
  const answer = { links: [{ phrase: 'Boots', url: 'https://example.com/boots', title: 'Boots', start: 0, end: 5 }], wordsAnalysed: 1 };

  it('should accept links with a title or a null title', () => {
    expect(internalLinksJsonSchema.safeParse(answer).success).toBe(true);
    expect(internalLinksJsonSchema.safeParse({ ...answer, links: [{ ...answer.links[0], title: null }] }).success).toBe(true);
  });

  it.each(['phrase', 'url', 'title', 'start', 'end'])('should reject a link without %s', (field) => {
    const link: Record<string, unknown> = { ...answer.links[0] };
    delete link[field];

    expect(paths(internalLinksJsonSchema.safeParse({ ...answer, links: [link] }))).toEqual([`links.0.${field}`]);
  });

  it('should reject a negative offset and a missing wordsAnalysed', () => {
    expect(paths(internalLinksJsonSchema.safeParse({ links: [{ ...answer.links[0], start: -1 }] }))).toEqual(['links.0.start', 'wordsAnalysed']);
  });
});

describe('errorBodySchema', () => {
  it('should read our error body with fields as strings or paths', () => {
    const body = { error: 'invalid_request', message: 'Bad', fields: [{ path: 'a', message: 'x' }, { path: ['b', 0], message: 'y' }] };

    expect(errorBodySchema.parse(body)).toEqual(body);
  });

  it('should tolerate a body with none of our members', () => {
    expect(errorBodySchema.safeParse({ detail: 'Something else' }).success).toBe(true);
  });
});
