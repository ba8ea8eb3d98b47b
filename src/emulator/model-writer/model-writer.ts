// The emulator's model writer: one OpenAI-compatible server, its settings resolved once, writing articles and estimating them.
import type { ArticleRequest } from '../../contract/request-schema.js';
import { articleShape, plannedSteps, plannedWords } from './article-shape.js';
import { ChatCompletions } from './chat-completions.js';
import { writeWithModel, type KeptAnswers, type ModelDraft, type ReportStep } from './write-article.js';
import { resolveWriterOptions, type ModelWriterOptions, type ResolvedWriterOptions } from './writer-settings.js';

/** What an article is expected to take before it is written: words reserved from the balance, steps it goes through. */
export interface ModelEstimate {
  words: number;
  steps: number;
}

export class ModelWriter {
  readonly settings: ResolvedWriterOptions;
  readonly #chat: ChatCompletions;

  /** Throws EmulatorError for options that cannot work (the message never holds the key). */
  constructor(options: ModelWriterOptions) {
    this.settings = resolveWriterOptions(options);
    this.#chat = new ChatCompletions(this.settings);
  }

  estimate(request: ArticleRequest): ModelEstimate {
    const shape = articleShape(request);
    return { words: plannedWords(shape), steps: plannedSteps(shape) };
  }

  /** Write one article, resuming from `kept`; rejects with ModelWriterError, or with the signal's reason once aborted. */
  write(request: ArticleRequest, report: ReportStep, signal: AbortSignal, kept?: KeptAnswers): Promise<ModelDraft> {
    return writeWithModel(request, this.#chat, report, signal, kept);
  }

  /** Let the server's connections go (the emulator stopped). */
  close(): Promise<void> {
    return this.#chat.close();
  }
}
