// The placeholder writer over a broad sample of keywords, checked as the loader checks it (after the pipeline, default settings): no error finding.
import { describe, expect, it } from 'vitest';
import { articleRequestSchema } from '../../src/contract/request-schema.js';
import { writeArticle } from '../../src/emulator/placeholder-writer/index.js';
import { processArticle } from '../../src/pipeline/index.js';
import { checkArticle, type Finding } from '../../src/quality/index.js';
import { keywordSample } from './keyword-sample.js';

const SAMPLE = keywordSample();

describe('the placeholder writer over a broad keyword sample', () => {
  it('should have at least 200 requests of every family', () => {
    expect(SAMPLE.length).toBeGreaterThanOrEqual(200);
  });

  it('should write every article with its keyword and no error finding under the default settings', { timeout: 180_000 }, async () => {
    const errors: Finding[] = [];
    const warnings = new Map<string, number>();
    for (const [index, input] of SAMPLE.entries()) {
      const request = articleRequestSchema.parse(input);
      const written = writeArticle(request);
      const slug = `sample-${index}`;
      const processed = await processArticle(written.polishedHtml ?? written.html, { keyword: request.targetKeyword, slug });
      const findings = await checkArticle({ slug, html: processed.html, title: processed.title, request });
      for (const finding of findings) {
        if (finding.severity === 'error') errors.push({ ...finding, slug: `${slug} (${request.articleType} "${request.targetKeyword}")` });
        else warnings.set(finding.code, (warnings.get(finding.code) ?? 0) + 1);
      }
    }
    // The figure the docs quote: warnings that remain, by code, over the sample.
    console.log(`placeholder writer, ${SAMPLE.length} requests: warnings ${JSON.stringify(Object.fromEntries([...warnings].sort()))}`);
    expect(errors).toEqual([]);
  });
});
