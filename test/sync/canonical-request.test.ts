import { describe, expect, it } from 'vitest';
import { canonicalRequest, diffRequests, explicitParameters, requestHash } from '../../src/sync/index.js';

describe('canonicalRequest / requestHash', () => {
  it('should give the same hash whatever the key order', () => {
    const a = requestHash({ targetKeyword: 'best coffee grinder', articleLength: 'long', polishSettings: { humanize: true, 'convert-passive-voice': true } });
    const b = requestHash({ polishSettings: { 'convert-passive-voice': true, humanize: true }, articleLength: 'long', targetKeyword: 'best coffee grinder' });
    expect(a).toBe(b);
  });

  it('should give the same hash to a request with defaults spelled out and one without', () => {
    const bare = requestHash({ targetKeyword: 'best coffee grinder' });
    const spelled = requestHash({
      targetKeyword: 'best coffee grinder',
      articleType: 'blog_post',
      gptVersion: 'model-6-luna',
      language: 'English',
      articleLength: 'default',
      polishSettings: { humanize: false },
    });
    expect(spelled).toBe(bare);
  });

  it('should leave integrationId and webhookUrl out of the hash', () => {
    const bare = requestHash({ targetKeyword: 'best coffee grinder' });
    const delivered = requestHash({ targetKeyword: 'best coffee grinder', integrationId: 'int-1', webhookUrl: 'https://example.com/hook?token=s3cret' });
    expect(delivered).toBe(bare);
    expect(JSON.stringify(canonicalRequest({ targetKeyword: 'k', webhookUrl: 'https://example.com/hook?token=s3cret' }))).not.toContain('s3cret');
  });

  it('should change the hash when a parameter that changes the text changes', () => {
    expect(requestHash({ targetKeyword: 'k', articleLength: 'long' })).not.toBe(requestHash({ targetKeyword: 'k' }));
    expect(requestHash({ targetKeyword: 'k', polishSettings: { humanize: true } })).not.toBe(requestHash({ targetKeyword: 'k' }));
    expect(requestHash({ targetKeyword: 'k2' })).not.toBe(requestHash({ targetKeyword: 'k' }));
  });

  it('should format the hash as sha256:<64 hex>', () => {
    expect(requestHash({ targetKeyword: 'k' })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('should sort keys at every level of the canonical JSON', () => {
    const json = JSON.stringify(canonicalRequest({ targetKeyword: 'k', polishSettings: { humanize: true } }));
    const keys = Object.keys(JSON.parse(json) as object);
    expect(keys).toEqual([...keys].sort());
    const polish = Object.keys((JSON.parse(json) as { polishSettings: object }).polishSettings);
    expect(polish).toEqual([...polish].sort());
  });

  it('should throw invalid_spec for a request the schema rejects', () => {
    expect(() => requestHash({ targetKeyword: '' })).toThrow(expect.objectContaining({ code: 'invalid_spec' }));
  });
});

describe('explicitParameters', () => {
  it('should keep only the keyword, the type and non-default members', () => {
    expect(explicitParameters({ targetKeyword: 'k', articleLength: 'long', polishSettings: { humanize: true, 'split-up-long-paragraphs': true } })).toEqual({
      articleLength: 'long',
      articleType: 'blog_post',
      polishSettings: { humanize: true },
      targetKeyword: 'k',
    });
  });

  it('should expand back to the same hash', () => {
    const request = { targetKeyword: 'k', articleType: 'listicle' as const, numberOfItems: 7, enableAutomaticLength: false };
    expect(requestHash(explicitParameters(request))).toBe(requestHash(request));
  });
});

describe('diffRequests', () => {
  it('should list each changed path with its old and new value', () => {
    const changes = diffRequests(canonicalRequest({ targetKeyword: 'k' }), canonicalRequest({ targetKeyword: 'k', articleLength: 'long', polishSettings: { humanize: true } }));
    expect(changes).toEqual([
      { path: 'articleLength', from: 'default', to: 'long' },
      { path: 'polishSettings.humanize', from: false, to: true },
    ]);
  });

  it('should report nothing for equal requests', () => {
    expect(diffRequests(canonicalRequest({ targetKeyword: 'k' }), canonicalRequest({ targetKeyword: 'k', language: 'English' }))).toEqual([]);
  });
});
