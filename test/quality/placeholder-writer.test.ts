// The emulator's placeholder writer against the quality checks: its normal articles, after the pipeline, carry no error finding.
import { describe, expect, it } from 'vitest';
import { articleRequestSchema, type ArticleRequestInput } from '../../src/contract/request-schema.js';
import { writeArticle } from '../../src/emulator/placeholder-writer/index.js';
import { processArticle } from '../../src/pipeline/index.js';
import { checkArticle } from '../../src/quality/index.js';

/** The playground's manifest and the README's Quick start, as requests. */
const SAMPLE_SITES: ArticleRequestInput[] = [
  { targetKeyword: 'how to brew pour over coffee', articleLength: 'short', multimediaOption: 'images', maxImages: 2, includeKeyTakeaways: true },
  { targetKeyword: 'pour over coffee ratio', articleLength: 'shorter', includeFaq: true },
  { targetKeyword: 'french press vs pour over', articleLength: 'short', multimediaOption: 'images', maxImages: 1 },
  { targetKeyword: 'best coffee grinders', articleType: 'retail_product_roundup', numRetailProducts: 4 },
  { targetKeyword: 'baratza encore review', articleType: 'retail_single_product_review' },
  { targetKeyword: 'coffee brewing methods', articleType: 'listicle', enableAutomaticLength: false, numberOfItems: 7 },
  { targetKeyword: 'best coffee shops in berlin', articleType: 'local_places_roundup', enableAutomaticLength: false, numberOfItems: 6 },
  { targetKeyword: 'how to make cold brew', articleType: 'video_article' },
  { targetKeyword: 'how to brew pour over coffee', articleLength: 'short' },
  { targetKeyword: 'best coffee grinders', articleType: 'retail_product_roundup' },
];

/** Other request shapes: every article type, the section switches, lengths, Polish and the writer's languages. */
const SHAPES: ArticleRequestInput[] = [
  { targetKeyword: 'sourdough starter', includeFaq: true, includeKeyTakeaways: true },
  { targetKeyword: 'sourdough starter', articleLength: 'long', disableConclusion: true },
  { targetKeyword: 'sourdough starter', articleLength: 'custom', numberOfSections: 3, autoPolish: true },
  { targetKeyword: 'what is a heat pump', articleLength: 'shorter', multimediaOption: 'auto' },
  { targetKeyword: 'hiking trails', articleType: 'listicle' },
  { targetKeyword: 'running shoes', articleType: 'retail_product_roundup', numRetailProducts: 8, includeFaq: true },
  { targetKeyword: 'tacos', articleType: 'local_places_roundup' },
  { targetKeyword: 'heat pump review', articleType: 'retail_single_product_review', enableCondensedMode: true },
  { targetKeyword: 'sourdough starter', articleType: 'rewrite_blog_post' },
  { targetKeyword: 'kaffee mahlen', language: 'German', includeFaq: true },
  { targetKeyword: 'café de olla', language: 'Spanish', articleLength: 'short' },
  { targetKeyword: 'pain au levain', language: 'French' },
  { targetKeyword: 'コーヒーの淹れ方', language: 'Japanese' },
  { targetKeyword: 'running shoes for flat feet', language: 'Japanese' },
];

async function errorsOf(input: ArticleRequestInput) {
  const request = articleRequestSchema.parse(input);
  const written = writeArticle(request);
  const processed = await processArticle(written.polishedHtml ?? written.html, { keyword: request.targetKeyword, slug: 'sample' });
  const findings = await checkArticle({ slug: 'sample', html: processed.html, title: processed.title, request });
  return findings.filter((finding) => finding.severity === 'error');
}

describe('the placeholder writer under the quality checks', () => {
  it.each(SAMPLE_SITES.map((input) => [input.targetKeyword, input.articleType ?? 'blog_post', input] as const))(
    'should write the sample sites\' "%s" (%s) with no error finding',
    async (_keyword, _type, input) => {
      expect(await errorsOf(input)).toEqual([]);
    },
  );

  it.each(SHAPES.map((input) => [input.targetKeyword, JSON.stringify({ ...input, targetKeyword: undefined }), input] as const))(
    'should write "%s" %s with no error finding',
    async (_keyword, _shape, input) => {
      expect(await errorsOf(input)).toEqual([]);
    },
  );
});
