// The model writer: articles written by a language model behind any OpenAI-compatible Chat Completions server.
export { ModelWriter, type ModelEstimate } from './model-writer.js';
export type { KeptAnswers, ModelDraft, ReportStep, WrittenSoFar } from './write-article.js';
export { ModelWriterError, type WriterErrorCode } from './writer-error.js';
export {
  DEFAULT_WRITER_CONCURRENCY,
  DEFAULT_WRITER_RETRIES,
  DEFAULT_WRITER_TIMEOUT_MS,
  withEnvKey,
  WRITER_KEY_ENV,
  WRITER_MODEL_ENV,
  WRITER_URL_ENV,
  writerFromEnv,
  type ModelWriterOptions,
} from './writer-settings.js';
