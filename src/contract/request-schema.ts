// Zod schemas for the article-creation request: every parameter, enum value, default and limit of the spec.
import { z } from 'zod';
import { IMAGE_SIZES } from './image-size.js';
import { isPlainObject } from '../lang/plain-object.js';
import { ARTICLE_TYPES, type ArticleType } from './article-types.js';

// ---------------------------------------------------------------------------
// Enumerations, spelled exactly as the spec spells them.
// ---------------------------------------------------------------------------

export { ARTICLE_TYPES, type ArticleType } from './article-types.js';

export const GPT_VERSIONS = [
  'model-6-luna',
  'model-6-sol',
  'assistant-sonnet-5',
  'assistant-opus-5-5',
  'assistant-4.5-sonnet',
] as const;
export const POINTS_OF_VIEW = ['third_person', 'first_person_singular', 'first_person_plural', 'second_person'] as const;
export const READABILITY_MODES = ['default', '8th_grade'] as const;
export const REAL_TIME_DATA_SOURCES = ['web', 'scholarly', 'news', 'custom'] as const;
/** The empty string means "all time". */
export const REAL_TIME_DATE_RANGES = ['', 'past_hour', 'past_day', 'past_week', 'past_month', 'past_year'] as const;
export const SEO_OPTIMIZATION_LEVELS = ['default', 'manual', 'ai_powered'] as const;
export const MULTIMEDIA_OPTIONS = ['none', 'auto', 'images', 'videos'] as const;
export const IMAGE_STYLES = ['illustration', 'photo', 'watercolor', 'fantasy', 'anime', 'isometric'] as const;
export const IMAGE_MODELS = ['model-image-2-fast', 'model-image-2-medium', 'imagegen-3.0-turbo', 'compact-image-2'] as const;
export const ARTICLE_LENGTHS = ['default', 'custom', 'short', 'shorter', 'medium', 'long', 'longer'] as const;
export const POLISH_SETTING_KEYS = [
  'split-up-long-paragraphs',
  'remove-mid-article-conclusions',
  'remove-repetitive-sentences',
  'convert-passive-voice',
  'simplify-complex-sentences',
  'humanize',
] as const;

/** Words billed per generated image, by image model (spec: "Image cost"). Models the spec prices. */
export const IMAGE_WORD_COST: Partial<Record<(typeof IMAGE_MODELS)[number], number>> = {
  'model-image-2-fast': 50,
  'model-image-2-medium': 200,
};

// ---------------------------------------------------------------------------
// Limits and defaults.
// ---------------------------------------------------------------------------

export const LIMITS = {
  polishCustomInstructionsMaxLength: 1024,
  numRetailProductsMin: 1,
  numRetailProductsMax: 48,
} as const;

export const POLISH_SETTINGS_DEFAULTS = {
  'split-up-long-paragraphs': true,
  'remove-mid-article-conclusions': true,
  'remove-repetitive-sentences': true,
  'convert-passive-voice': false,
  'simplify-complex-sentences': false,
  humanize: false,
} as const satisfies Record<(typeof POLISH_SETTING_KEYS)[number], boolean>;

// ---------------------------------------------------------------------------
// Field schemas.
// ---------------------------------------------------------------------------

const nonEmptyString = z.string().trim().min(1, 'must not be empty');
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' });
const count = z.number().int('must be a whole number');

export const polishSettingsSchema = z
  .strictObject({
    'split-up-long-paragraphs': z.boolean().default(POLISH_SETTINGS_DEFAULTS['split-up-long-paragraphs']),
    'remove-mid-article-conclusions': z.boolean().default(POLISH_SETTINGS_DEFAULTS['remove-mid-article-conclusions']),
    'remove-repetitive-sentences': z.boolean().default(POLISH_SETTINGS_DEFAULTS['remove-repetitive-sentences']),
    'convert-passive-voice': z.boolean().default(POLISH_SETTINGS_DEFAULTS['convert-passive-voice']),
    'simplify-complex-sentences': z.boolean().default(POLISH_SETTINGS_DEFAULTS['simplify-complex-sentences']),
    humanize: z.boolean().default(POLISH_SETTINGS_DEFAULTS.humanize),
  })
  // `prefault` parses `{}` when the key is absent, so every member gets its default.
  .prefault({});

/**
 * A section of `outline`. The spec does not show its shape; we accept a bare section name or
 * `{ title, subsections? }` where subsections are names or sections (documented in the README).
 */
export type OutlineSection = string | { title: string; subsections?: OutlineSection[] | undefined };
export const outlineSectionSchema: z.ZodType<OutlineSection> = z.lazy(() =>
  z.union([nonEmptyString, z.looseObject({ title: nonEmptyString, subsections: z.array(outlineSectionSchema).optional() })]),
);

/** Parameters every article type accepts. */
export const commonParametersShape = {
  targetKeyword: nonEmptyString,
  integrationId: nonEmptyString.optional(),
  webhookUrl: httpUrl.optional(),
  gptVersion: z.enum(GPT_VERSIONS).default('model-6-luna'),
  autoPolish: z.boolean().default(false),
  polishSettings: polishSettingsSchema,
  polishCustomInstructions: z
    .string()
    .max(LIMITS.polishCustomInstructionsMaxLength, `must be at most ${LIMITS.polishCustomInstructionsMaxLength} characters`)
    .optional(),
  language: nonEmptyString.default('English'),
  pointOfView: z.enum(POINTS_OF_VIEW).default('third_person'),
  extraTitlePrompt: z.string().optional(),
  extraSectionPrompt: z.string().optional(),
  extraIntroductionPrompt: z.string().optional(),
  toneOfVoiceProfile: nonEmptyString.default('seo_optimized'),
  title: nonEmptyString.optional(),
  includeFaq: z.boolean().default(false),
  readabilityMode: z.enum(READABILITY_MODES).default('default'),
};

/** Parameters only `blog_post` accepts. */
export const blogPostParametersShape = {
  realTimeData: z.boolean().default(false),
  enableDeepResearch: z.boolean().default(false),
  shouldCiteSources: z.boolean().default(true),
  realTimeDataSource: z.enum(REAL_TIME_DATA_SOURCES).optional(),
  realTimeDateRange: z.enum(REAL_TIME_DATE_RANGES).default(''),
  internalLinkingDomainId: nonEmptyString.optional(),
  seoOptimizationLevel: z.enum(SEO_OPTIMIZATION_LEVELS).default('default'),
  extraEntitiesPrompt: z.string().optional(),
  includeKeyTakeaways: z.boolean().default(false),
  outline: z.array(outlineSectionSchema).min(1, 'must list at least one section').optional(),
  extraOutlinePrompt: z.string().optional(),
  country: nonEmptyString.optional(),
  urls: z.array(httpUrl).optional(),
  disableIntroduction: z.boolean().optional(),
  disableConclusion: z.boolean().optional(),
  multimediaOption: z.enum(MULTIMEDIA_OPTIONS).default('none'),
  imageStyle: z.enum(IMAGE_STYLES).default('illustration'),
  imageModel: z.enum(IMAGE_MODELS).default('model-image-2-fast'),
  maxImages: count.min(0, 'must be 0 or more').optional(),
  imageSize: z.enum(IMAGE_SIZES).default('1024x1024'),
  maxVideos: count.min(0, 'must be 0 or more').optional(),
  articleLength: z.enum(ARTICLE_LENGTHS).default('default'),
  numberOfSections: count.min(1, 'must be 1 or more').optional(),
};

/** Parameters `listicle` and `local_places_roundup` accept. */
export const listParametersShape = {
  enableSupplementalInformation: z.boolean().default(true),
  enableAutomaticLength: z.boolean().default(true),
  numberOfItems: count.min(1, 'must be 1 or more').default(10),
};

export const retailRoundupParametersShape = {
  retailDomain: nonEmptyString.optional(),
  numRetailProducts: count
    .min(LIMITS.numRetailProductsMin, `must be from ${LIMITS.numRetailProductsMin} to ${LIMITS.numRetailProductsMax}`)
    .max(LIMITS.numRetailProductsMax, `must be from ${LIMITS.numRetailProductsMin} to ${LIMITS.numRetailProductsMax}`)
    .default(10),
  enableFirstHandExperience: z.boolean().default(true),
  affiliateId: nonEmptyString.optional(),
  productSearchUrl: httpUrl.optional(),
};

export const videoArticleParametersShape = {
  videoUrl: httpUrl.optional(),
  rewriteAllSourceData: z.boolean().optional(),
};

export const rewriteBlogPostParametersShape = {
  articleUrl: httpUrl.optional(),
  rewriteAllSourceData: z.boolean().optional(),
};

export const singleProductReviewParametersShape = {
  productId: nonEmptyString.optional(),
  enableCondensedMode: z.boolean().optional(),
};

/** The parameters specific to each article type (beyond the common ones). */
export const TYPE_PARAMETER_SHAPES = {
  blog_post: blogPostParametersShape,
  retail_product_roundup: retailRoundupParametersShape,
  video_article: videoArticleParametersShape,
  rewrite_blog_post: rewriteBlogPostParametersShape,
  retail_single_product_review: singleProductReviewParametersShape,
  listicle: listParametersShape,
  local_places_roundup: listParametersShape,
} as const satisfies Record<ArticleType, z.ZodRawShape>;

/** Every parameter name the spec knows, for "unknown parameter" and did-you-mean messages. */
export const ALL_PARAMETER_NAMES: readonly string[] = [
  ...new Set(['articleType', ...Object.keys(commonParametersShape), ...Object.values(TYPE_PARAMETER_SHAPES).flatMap(Object.keys)]),
].sort();

/** The article types a parameter applies to; empty for an unknown name. */
export function articleTypesForParameter(name: string): ArticleType[] {
  // Object.hasOwn, not `in`: "constructor" or "__proto__" must not count as parameters.
  if (name === 'articleType' || Object.hasOwn(commonParametersShape, name)) return [...ARTICLE_TYPES];
  return ARTICLE_TYPES.filter((type) => Object.hasOwn(TYPE_PARAMETER_SHAPES[type], name));
}

function misplacedKeysMessage(keys: readonly string[], articleType: ArticleType): string {
  return keys
    .map((key) => {
      const owners = articleTypesForParameter(key);
      return owners.length > 0
        ? `"${key}" applies only to articleType ${owners.map((o) => `"${o}"`).join(' or ')}, not "${articleType}"; remove it or change articleType`
        : `"${key}" is not a parameter of the article service; remove it or check its spelling`;
    })
    .join('; ');
}

function variant<T extends ArticleType>(articleType: T) {
  return z.strictObject(
    { articleType: z.literal(articleType), ...commonParametersShape, ...TYPE_PARAMETER_SHAPES[articleType] },
    {
      // A parameter of another article type is an error that names it, never silently dropped.
      error: (issue) => (issue.code === 'unrecognized_keys' ? misplacedKeysMessage(issue.keys, articleType) : undefined),
    },
  );
}

export const blogPostRequestSchema = variant('blog_post');
export const retailProductRoundupRequestSchema = variant('retail_product_roundup');
export const videoArticleRequestSchema = variant('video_article');
export const rewriteBlogPostRequestSchema = variant('rewrite_blog_post');
export const retailSingleProductReviewRequestSchema = variant('retail_single_product_review');
export const listicleRequestSchema = variant('listicle');
export const localPlacesRoundupRequestSchema = variant('local_places_roundup');

const articleRequestUnion = z.discriminatedUnion(
  'articleType',
  [
    blogPostRequestSchema,
    retailProductRoundupRequestSchema,
    videoArticleRequestSchema,
    rewriteBlogPostRequestSchema,
    retailSingleProductReviewRequestSchema,
    listicleRequestSchema,
    localPlacesRoundupRequestSchema,
  ],
  { error: () => `must be one of ${ARTICLE_TYPES.map((t) => `"${t}"`).join(', ')}` },
);

/**
 * The article-creation request. `articleType` defaults to `blog_post`; the parsed value has every
 * spec default applied, so two requests that mean the same thing parse to the same object.
 */
export const articleRequestSchema = z.preprocess(
  (value) => (isPlainObject(value) && value.articleType === undefined ? { ...value, articleType: 'blog_post' } : value),
  articleRequestUnion,
);

/** A request as the caller writes it: `articleType` and every defaulted field may be left out. */
export type ArticleRequestInput =
  | z.input<typeof articleRequestUnion>
  | (Omit<z.input<typeof blogPostRequestSchema>, 'articleType'> & { articleType?: undefined });
/** A parsed request: defaults applied. Narrow on `articleType` for the type-specific fields. */
export type ArticleRequest = z.output<typeof articleRequestUnion>;
export type BlogPostRequest = z.output<typeof blogPostRequestSchema>;
export type ListicleRequest = z.output<typeof listicleRequestSchema>;
export type RetailProductRoundupRequest = z.output<typeof retailProductRoundupRequestSchema>;
export type PolishSettings = z.output<typeof polishSettingsSchema>;
