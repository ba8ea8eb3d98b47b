// Zod schemas for what the service sends back: creation result, status record, internal links.
import { z } from 'zod';

export const ARTICLE_STATUSES = ['queued', 'processing', 'finished', 'failed'] as const;
export type ArticleStatusValue = (typeof ARTICLE_STATUSES)[number];

/** The spec calls it a UUID; we accept any 8-4-4-4-12 hex id, which is also safe in a URL path. */
export const articleIdSchema = z.guid({ error: 'must be a UUID' });

export const createArticleResultSchema = z.looseObject({ articleId: articleIdSchema });
export type CreateArticleResult = z.output<typeof createArticleResultSchema>;

export const articleOutputSchema = z.looseObject({
  html: z.string(),
  polishedHtml: z.string().nullable(),
});
export type ArticleOutput = z.output<typeof articleOutputSchema>;

/**
 * `error` is "null or value" in the spec, its shape not shown. The emulator sends
 * `{ code, message }`; we accept any value and only ever display it as text.
 */
const statusRecordBase = {
  // "Other members: not shown": keep whatever else the service echoes.
  config: z.looseObject({ targetKeyword: z.string() }),
  statusDetail: z.string(),
  updatedAt: z.number().int().nonnegative(),
  progress: z.number().min(0).max(1),
  error: z.unknown().optional().transform((value) => value ?? null),
};

const noOutput = z.undefined({ error: 'must be absent unless status is "finished"' }).optional();

/** The status record. `output` is present exactly when `status` is `finished`. */
export const articleStatusSchema = z.discriminatedUnion(
  'status',
  [
    z.looseObject({ ...statusRecordBase, status: z.literal('queued'), output: noOutput }),
    z.looseObject({ ...statusRecordBase, status: z.literal('processing'), output: noOutput }),
    z.looseObject({ ...statusRecordBase, status: z.literal('failed'), output: noOutput }),
    z.looseObject({ ...statusRecordBase, status: z.literal('finished'), output: articleOutputSchema }),
  ],
  { error: () => `must be one of ${ARTICLE_STATUSES.map((s) => `"${s}"`).join(', ')}` },
);
export type ArticleStatus = z.output<typeof articleStatusSchema>;
export type FinishedArticleStatus = Extract<ArticleStatus, { status: 'finished' }>;

/** The spec documents `html`; `markdown` and `json` are our reading of "not shown" (README). */
export const INTERNAL_LINK_FORMATS = ['html', 'markdown', 'json'] as const;
export type InternalLinkFormat = (typeof INTERNAL_LINK_FORMATS)[number];

export const internalLinkRequestSchema = z.strictObject({
  content: z.string().min(1, 'must not be empty'),
  format: z.enum(INTERNAL_LINK_FORMATS).default('html'),
  domainId: z.string().trim().min(1, 'must not be empty'),
});
export type InternalLinkRequest = z.input<typeof internalLinkRequestSchema>;

/**
 * The JSON-format answer of the internal-links route (shape not shown by the spec; this is ours).
 * `start`/`end` are UTF-16 offsets of the linked phrase in the submitted content.
 */
export const internalLinksJsonSchema = z.looseObject({
  links: z.array(
    z.looseObject({
      phrase: z.string(),
      url: z.string(),
      title: z.string().nullable(),
      start: z.number().int().nonnegative(),
      end: z.number().int().nonnegative(),
    }),
  ),
  wordsAnalysed: z.number().int().nonnegative(),
});
export type InternalLinksJson = z.output<typeof internalLinksJsonSchema>;

/**
 * What the service (and our emulator) send as the body of a 4xx/5xx answer. The spec does not show
 * it; we read `message`/`error` and `fields`/`issues` when present and tolerate anything else.
 */
export const errorBodySchema = z.looseObject({
  error: z.unknown().optional(),
  message: z.string().optional(),
  fields: z
    .array(z.looseObject({ path: z.union([z.string(), z.array(z.union([z.string(), z.number()]))]), message: z.string() }))
    .optional(),
});
export type ErrorBody = z.output<typeof errorBodySchema>;
