// The article request schema against the spec: every enum value, default, limit and cross-type rejection.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { IMAGE_PIXEL_SIZES, IMAGE_SIZE_SHORTHANDS, IMAGE_SIZES } from '../../src/contract/image-size.js';
import {
  ALL_PARAMETER_NAMES,
  ARTICLE_LENGTHS,
  ARTICLE_TYPES,
  type ArticleType,
  GPT_VERSIONS,
  IMAGE_MODELS,
  IMAGE_STYLES,
  LIMITS,
  MULTIMEDIA_OPTIONS,
  POINTS_OF_VIEW,
  POLISH_SETTINGS_DEFAULTS,
  POLISH_SETTING_KEYS,
  READABILITY_MODES,
  REAL_TIME_DATA_SOURCES,
  REAL_TIME_DATE_RANGES,
  SEO_OPTIMIZATION_LEVELS,
  TYPE_PARAMETER_SHAPES,
  articleRequestSchema,
  articleTypesForParameter,
  commonParametersShape,
} from '../../src/contract/request-schema.js';

type Shape = Record<string, z.ZodType>;

/** The schema under `default`/`optional`/`prefault` wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema as unknown as { def: { type: string; innerType?: z.ZodType } };
  while (['default', 'optional', 'prefault', 'nullable'].includes(current.def.type) && current.def.innerType) {
    current = current.def.innerType as unknown as typeof current;
  }
  return current as unknown as z.ZodType;
}

function shapeOf(type: ArticleType): Shape {
  return { ...commonParametersShape, ...TYPE_PARAMETER_SHAPES[type] } as Shape;
}

function parse(request: Record<string, unknown>) {
  return articleRequestSchema.safeParse(request);
}

/** Issues of a failed parse as `path: message` lines, for readable assertions. */
function issues(request: Record<string, unknown>): string[] {
  const result = parse(request);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

// ---------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------

/** Every enum parameter and the constant that should feed it. */
const ENUM_PARAMETERS: Record<string, readonly string[]> = {
  gptVersion: GPT_VERSIONS,
  pointOfView: POINTS_OF_VIEW,
  readabilityMode: READABILITY_MODES,
  realTimeDataSource: REAL_TIME_DATA_SOURCES,
  realTimeDateRange: REAL_TIME_DATE_RANGES,
  seoOptimizationLevel: SEO_OPTIMIZATION_LEVELS,
  multimediaOption: MULTIMEDIA_OPTIONS,
  imageStyle: IMAGE_STYLES,
  imageModel: IMAGE_MODELS,
  imageSize: IMAGE_SIZES,
  articleLength: ARTICLE_LENGTHS,
};

const ENUM_VALUE_CASES = Object.entries(ENUM_PARAMETERS).flatMap(([parameter, values]) =>
  articleTypesForParameter(parameter).flatMap((articleType) => values.map((value) => ({ parameter, articleType, value }))),
);

const ENUM_WRONG_CASES = Object.keys(ENUM_PARAMETERS).map((parameter) => ({
  parameter,
  articleType: articleTypesForParameter(parameter)[0] as ArticleType,
}));

describe('enumerations', () => {
  it('should have a constant for every enum parameter of every article type, and use it', () => {
    const found = new Map<string, readonly string[]>();
    for (const type of ARTICLE_TYPES) {
      for (const [name, schema] of Object.entries(shapeOf(type))) {
        const inner = unwrap(schema) as unknown as { def: { type: string }; options?: readonly string[] };
        if (inner.def.type === 'enum') found.set(name, inner.options ?? []);
      }
    }

    expect([...found.keys()].sort()).toEqual(Object.keys(ENUM_PARAMETERS).sort());
    for (const [name, options] of found) expect(options).toEqual(ENUM_PARAMETERS[name]);
  });

  it.each(ENUM_VALUE_CASES)('should accept $parameter $value for $articleType', ({ parameter, articleType, value }) => {
    const result = parse({ targetKeyword: 'best hiking boots', articleType, [parameter]: value });

    expect(result.success && (result.data as Record<string, unknown>)[parameter]).toBe(value);
  });

  it.each(ENUM_WRONG_CASES)('should reject a wrong $parameter value for $articleType, naming the parameter', ({ parameter, articleType }) => {
    expect(issues({ targetKeyword: 'best hiking boots', articleType, [parameter]: 'not-a-value' })).toEqual([
      expect.stringMatching(new RegExp(`^${parameter}: `)),
    ]);
  });

  it.each(ARTICLE_TYPES)('should accept articleType %s', (articleType) => {
    expect(parse({ targetKeyword: 'best hiking boots', articleType }).success).toBe(true);
  });

  it('should reject an unknown articleType, listing the valid ones', () => {
    expect(issues({ targetKeyword: 'best hiking boots', articleType: 'news_article' })).toEqual([
      expect.stringContaining('articleType: must be one of "blog_post"'),
    ]);
  });

  it.each(POLISH_SETTING_KEYS.flatMap((key) => [true, false].map((value) => ({ key, value }))))(
    'should accept polishSettings $key = $value',
    ({ key, value }) => {
      const result = parse({ targetKeyword: 'best hiking boots', polishSettings: { [key]: value } });

      expect(result.success && result.data.polishSettings[key]).toBe(value);
    },
  );

  it.each(POLISH_SETTING_KEYS)('should reject a polishSettings %s that is not a boolean', (key) => {
    expect(issues({ targetKeyword: 'best hiking boots', polishSettings: { [key]: 'yes' } })).toEqual([
      expect.stringMatching(new RegExp(`^polishSettings\\.${key}: `)),
    ]);
  });

  it('should reject an unknown polishSettings key, naming it', () => {
    expect(issues({ targetKeyword: 'best hiking boots', polishSettings: { shorten: true } })).toEqual([expect.stringContaining('shorten')]);
  });

  // Literal spot checks against the spec text, so a wrong constant cannot pass the generated cases.
  it('should spell every enumeration as the spec does', () => {
    expect(ARTICLE_TYPES).toEqual([
      'blog_post',
      'retail_product_roundup',
      'video_article',
      'rewrite_blog_post',
      'retail_single_product_review',
      'listicle',
      'local_places_roundup',
    ]);
    expect(GPT_VERSIONS).toEqual(['model-6-luna', 'model-6-sol', 'assistant-sonnet-5', 'assistant-opus-5-5', 'assistant-4.5-sonnet']);
    expect(POINTS_OF_VIEW).toEqual(['third_person', 'first_person_singular', 'first_person_plural', 'second_person']);
    expect(READABILITY_MODES).toEqual(['default', '8th_grade']);
    expect(REAL_TIME_DATA_SOURCES).toEqual(['web', 'scholarly', 'news', 'custom']);
    expect(REAL_TIME_DATE_RANGES).toEqual(['', 'past_hour', 'past_day', 'past_week', 'past_month', 'past_year']);
    expect(SEO_OPTIMIZATION_LEVELS).toEqual(['default', 'manual', 'ai_powered']);
    expect(MULTIMEDIA_OPTIONS).toEqual(['none', 'auto', 'images', 'videos']);
    expect(IMAGE_STYLES).toEqual(['illustration', 'photo', 'watercolor', 'fantasy', 'anime', 'isometric']);
    expect(IMAGE_MODELS).toEqual(['model-image-2-fast', 'model-image-2-medium', 'imagegen-3.0-turbo', 'compact-image-2']);
    expect(ARTICLE_LENGTHS).toEqual(['default', 'custom', 'short', 'shorter', 'medium', 'long', 'longer']);
    expect(IMAGE_PIXEL_SIZES).toEqual(['1024x1024', '1536x1024', '1024x1536', '1792x1008', '1008x1792']);
    expect(IMAGE_SIZE_SHORTHANDS).toEqual(['1:1', '16:9', '9:16', 'square', 'landscape', 'portrait']);
    expect(POLISH_SETTING_KEYS).toEqual([
      'split-up-long-paragraphs',
      'remove-mid-article-conclusions',
      'remove-repetitive-sentences',
      'convert-passive-voice',
      'simplify-complex-sentences',
      'humanize',
    ]);
  });
});

// ---------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------

const DEFAULT_CASES = ARTICLE_TYPES.flatMap((articleType) =>
  Object.entries(shapeOf(articleType)).flatMap(([parameter, schema]) => {
    const def = (schema as unknown as { def: { type: string; defaultValue?: unknown } }).def;
    return def.type === 'default' ? [{ articleType, parameter, value: def.defaultValue }] : [];
  }),
);

describe('defaults', () => {
  it.each(DEFAULT_CASES)('should default $parameter of $articleType to $value', ({ articleType, parameter, value }) => {
    const result = parse({ targetKeyword: 'best hiking boots', articleType });

    expect(result.success && (result.data as Record<string, unknown>)[parameter]).toEqual(value);
  });

  it.each(ARTICLE_TYPES)('should default every polishSettings key for %s', (articleType) => {
    const result = parse({ targetKeyword: 'best hiking boots', articleType });

    expect(result.success && result.data.polishSettings).toEqual(POLISH_SETTINGS_DEFAULTS);
  });

  it('should default the keys left out of a partial polishSettings', () => {
    const result = parse({ targetKeyword: 'best hiking boots', polishSettings: { humanize: true } });

    expect(result.success && result.data.polishSettings).toEqual({ ...POLISH_SETTINGS_DEFAULTS, humanize: true });
  });

  it('should default articleType to blog_post', () => {
    const result = parse({ targetKeyword: 'best hiking boots' });

    expect(result.success && result.data.articleType).toBe('blog_post');
  });

  it('should not invent values for parameters without a default', () => {
    const result = parse({ targetKeyword: 'best hiking boots' });

    expect(result.success && Object.keys(result.data)).not.toEqual(expect.arrayContaining(['integrationId']));
    expect(result.success && 'maxImages' in result.data).toBe(false);
  });

  // Literal spot checks of the spec's defaults.
  it('should apply the spec defaults of a blog post', () => {
    expect(parse({ targetKeyword: 'best hiking boots' }).data).toMatchObject({
      gptVersion: 'model-6-luna',
      autoPolish: false,
      language: 'English',
      pointOfView: 'third_person',
      toneOfVoiceProfile: 'seo_optimized',
      includeFaq: false,
      readabilityMode: 'default',
      realTimeData: false,
      enableDeepResearch: false,
      shouldCiteSources: true,
      realTimeDateRange: '',
      seoOptimizationLevel: 'default',
      includeKeyTakeaways: false,
      multimediaOption: 'none',
      imageStyle: 'illustration',
      imageModel: 'model-image-2-fast',
      imageSize: '1024x1024',
      articleLength: 'default',
      polishSettings: {
        'split-up-long-paragraphs': true,
        'remove-mid-article-conclusions': true,
        'remove-repetitive-sentences': true,
        'convert-passive-voice': false,
        'simplify-complex-sentences': false,
        humanize: false,
      },
    });
  });

  it.each(['listicle', 'local_places_roundup'] as const)('should apply the spec defaults of a %s', (articleType) => {
    expect(parse({ targetKeyword: '10 best hikes', articleType }).data).toMatchObject({
      enableSupplementalInformation: true,
      enableAutomaticLength: true,
      numberOfItems: 10,
    });
  });

  it('should apply the spec defaults of a retail product roundup', () => {
    expect(parse({ targetKeyword: 'best hiking boots', articleType: 'retail_product_roundup' }).data).toMatchObject({
      numRetailProducts: 10,
      enableFirstHandExperience: true,
    });
  });
});

// ---------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------

describe('limits', () => {
  it('should accept polishCustomInstructions of 1024 characters', () => {
    expect(LIMITS.polishCustomInstructionsMaxLength).toBe(1024);
    expect(issues({ targetKeyword: 'k', polishCustomInstructions: 'x'.repeat(1024) })).toEqual([]);
  });

  it('should reject polishCustomInstructions of 1025 characters', () => {
    expect(issues({ targetKeyword: 'k', polishCustomInstructions: 'x'.repeat(1025) })).toEqual([
      'polishCustomInstructions: must be at most 1024 characters',
    ]);
  });

  it.each([1, 48])('should accept numRetailProducts %i', (count) => {
    expect(issues({ targetKeyword: 'k', articleType: 'retail_product_roundup', numRetailProducts: count })).toEqual([]);
  });

  it.each([0, 49, 10.5])('should reject numRetailProducts %d', (count) => {
    expect(issues({ targetKeyword: 'k', articleType: 'retail_product_roundup', numRetailProducts: count })).toEqual([
      expect.stringMatching(/^numRetailProducts: /),
    ]);
  });

  it.each([...IMAGE_PIXEL_SIZES, ...IMAGE_SIZE_SHORTHANDS])('should accept imageSize %s', (size) => {
    expect(issues({ targetKeyword: 'k', imageSize: size })).toEqual([]);
  });

  it.each(['800x600', '1024X1024', '4:3', 'wide'])('should reject imageSize %s', (size) => {
    expect(issues({ targetKeyword: 'k', imageSize: size })).toEqual([expect.stringMatching(/^imageSize: /)]);
  });

  it('should accept the empty realTimeDateRange (all time)', () => {
    const result = parse({ targetKeyword: 'k', realTimeData: true, realTimeDataSource: 'news', realTimeDateRange: '' });

    expect(result.success && result.data.articleType === 'blog_post' && result.data.realTimeDateRange).toBe('');
  });

  it.each([
    { parameter: 'numberOfItems', value: 0, articleType: 'listicle' },
    { parameter: 'numberOfSections', value: 0, articleType: 'blog_post' },
    { parameter: 'maxImages', value: -1, articleType: 'blog_post' },
    { parameter: 'maxVideos', value: 1.5, articleType: 'blog_post' },
  ])('should reject $parameter $value', ({ parameter, value, articleType }) => {
    expect(issues({ targetKeyword: 'k', articleType, [parameter]: value })).toEqual([expect.stringMatching(new RegExp(`^${parameter}: `))]);
  });

  it('should require targetKeyword', () => {
    expect(issues({})).toEqual([expect.stringMatching(/^targetKeyword: /)]);
  });
});

// ---------------------------------------------------------------------------
// Parameters per article type
// ---------------------------------------------------------------------------

/** A valid value for every parameter, so a rejection can only be about where it is used. */
const SAMPLE_VALUES: Record<string, unknown> = {
  articleType: 'blog_post',
  targetKeyword: 'best hiking boots',
  integrationId: 'int-1',
  webhookUrl: 'https://example.com/hook',
  gptVersion: 'model-6-sol',
  autoPolish: true,
  polishSettings: { humanize: true },
  polishCustomInstructions: 'Keep it short.',
  language: 'German',
  pointOfView: 'second_person',
  extraTitlePrompt: 'Catchy',
  extraSectionPrompt: 'Concrete',
  extraIntroductionPrompt: 'Warm',
  toneOfVoiceProfile: 'friendly',
  title: 'Boots',
  includeFaq: true,
  readabilityMode: '8th_grade',
  realTimeData: true,
  enableDeepResearch: true,
  shouldCiteSources: false,
  realTimeDataSource: 'news',
  realTimeDateRange: 'past_week',
  internalLinkingDomainId: 'dom-1',
  seoOptimizationLevel: 'manual',
  extraEntitiesPrompt: 'leather, trail',
  includeKeyTakeaways: true,
  outline: ['Intro', { title: 'Choosing', subsections: ['Fit'] }],
  extraOutlinePrompt: 'Fit\n  Sizing',
  country: 'DE',
  urls: ['https://example.com/a'],
  disableIntroduction: true,
  disableConclusion: true,
  multimediaOption: 'images',
  imageStyle: 'photo',
  imageModel: 'model-image-2-medium',
  maxImages: 3,
  imageSize: '16:9',
  maxVideos: 1,
  articleLength: 'custom',
  numberOfSections: 6,
  enableSupplementalInformation: false,
  enableAutomaticLength: false,
  numberOfItems: 7,
  retailDomain: 'shop.example.com',
  numRetailProducts: 12,
  enableFirstHandExperience: false,
  affiliateId: 'aff-1',
  productSearchUrl: 'https://shop.example.com/search?q=boots',
  videoUrl: 'https://video.example.com/v/1',
  rewriteAllSourceData: true,
  articleUrl: 'https://blog.example.com/post',
  productId: 'B000123',
  enableCondensedMode: true,
};

const OWN_PARAMETER_CASES = ARTICLE_TYPES.flatMap((articleType) =>
  Object.keys(shapeOf(articleType)).map((parameter) => ({ articleType, parameter })),
);

const CROSS_TYPE_CASES = ARTICLE_TYPES.flatMap((articleType) =>
  ALL_PARAMETER_NAMES.filter((parameter) => !articleTypesForParameter(parameter).includes(articleType)).map((parameter) => ({
    articleType,
    parameter,
    owners: articleTypesForParameter(parameter),
  })),
);

describe('parameters per article type', () => {
  it('should have a sample value for every parameter the schema knows', () => {
    expect(Object.keys(SAMPLE_VALUES).sort()).toEqual([...ALL_PARAMETER_NAMES].sort());
  });

  it.each(OWN_PARAMETER_CASES)('should accept $parameter on $articleType', ({ articleType, parameter }) => {
    expect(issues({ targetKeyword: 'k', articleType, [parameter]: SAMPLE_VALUES[parameter] })).toEqual([]);
  });

  it('should accept every parameter of a type at once', () => {
    for (const articleType of ARTICLE_TYPES) {
      const request = Object.fromEntries(Object.keys(shapeOf(articleType)).map((parameter) => [parameter, SAMPLE_VALUES[parameter]]));
      expect(issues({ ...request, articleType })).toEqual([]);
    }
  });

  it.each(CROSS_TYPE_CASES)('should reject $parameter on $articleType, naming it and its article types', ({ articleType, parameter, owners }) => {
    const result = parse({ targetKeyword: 'k', articleType, [parameter]: SAMPLE_VALUES[parameter] });

    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: [parameter] })]);
    const message = result.error?.issues[0]?.message ?? '';
    expect(message).toContain(`"${parameter}" applies only to articleType`);
    for (const owner of owners) expect(message).toContain(`"${owner}"`);
    expect(message).toContain(`not "${articleType}"`);
  });

  it('should treat a request without articleType as a blog post when rejecting another type\'s parameter', () => {
    expect(issues({ targetKeyword: 'k', numberOfItems: 5 })).toEqual([expect.stringContaining('"numberOfItems" applies only to articleType')]);
  });

  it('should reject a parameter the service does not know, asking to check its spelling', () => {
    expect(issues({ targetKeyword: 'k', targetKeywords: 'x' })).toEqual([expect.stringContaining('"targetKeywords" is not a parameter')]);
  });

  it('should parse an already parsed request to the same request', () => {
    const once = parse({ targetKeyword: 'k', articleType: 'listicle', numberOfItems: 5 });
    const twice = once.success ? parse(once.data as Record<string, unknown>) : undefined;

    expect(twice?.success && twice.data).toEqual(once.data);
  });
});
