// The article-service emulator: start it from code, verify its webhooks, read its ledger.
export { startEmulator } from './server.js';
export type { AccountBalance, ArticleStatusRecord, CmsDraft, RequestLogEntry, RunningEmulator } from './server.js';
export type { EmulatorOptions, ImageModel } from './options.js';
export type { ModelWriterOptions, WriterErrorCode } from './model-writer/index.js';
export { UNPRICED_IMAGE_WORD_COST, DEFAULT_MAX_BODY_BYTES } from './options.js';
export { DEVELOPMENT_API_KEY, PLANS } from './accounts.js';
export type { AccountOptions, DomainOptions, IntegrationOptions, InternalLinkPage, Plan } from './accounts.js';
export { Ledger } from './ledger.js';
export type { LedgerCreation, LedgerDuplicate, LedgerLinkCharge, LedgerTotals } from './ledger.js';
export { FAULT_ROUTES } from './faults.js';
export type { DelaySpec, FaultConfig, FaultOptions, FaultRoute } from './faults.js';
export { TIMING_PRESETS, TIMING_PRESET_VALUES } from './timing.js';
export type { TimingOptions, TimingPreset } from './timing.js';
export { DEFAULT_RATE_LIMIT } from './rate-limiter.js';
export type { RateLimitOptions } from './rate-limiter.js';
export type { WebhookAttempt, WebhookDelivery, WebhookRetryOptions } from './webhook-delivery.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from './webhook-signature.js';
export type { VerifyWebhookInput, WebhookVerificationCode } from './webhook-signature.js';
export { MAX_LINKS, WORDS_ANALYSED } from './internal-links.js';
/** Hex SHA-256 of a parsed request's canonical JSON: the ledger's `requestHash`. */
export { canonicalJsonHash as hashParsedRequest } from '../contract/canonical-json.js';
export { EmulatorError } from './errors.js';
export { loadEmulatorConfig, loadDomainsFile } from './config-file.js';
export { writeArticle } from './placeholder-writer/index.js';
export type { WriteArticleOptions, WrittenArticle } from './placeholder-writer/index.js';

import { articleRequestSchema, type ArticleRequestInput } from '../contract/request-schema.js';
import { canonicalJsonHash } from '../contract/canonical-json.js';

/** The ledger's `requestHash` of a request as a caller writes it (defaults applied first). */
export function hashArticleRequest(request: ArticleRequestInput): string {
  return canonicalJsonHash(articleRequestSchema.parse(request));
}
