// Writing an article with a language model: the outline first, then each part in order, reporting each step as it starts.
import { z } from 'zod';
import type { ArticleRequest } from '../../contract/request-schema.js';
import { countHtmlWords } from '../../contract/word-count.js';
import { titleCase } from '../placeholder-writer/keyword.js';
import { escapeHtml } from '../../lang/escape.js';
import { articleParts, sourcesHtml } from './article-parts.js';
import { articleShape } from './article-shape.js';
import type { ChatCompletions } from './chat-completions.js';
import { markdownToHtml } from './markdown-html.js';
import { parseOutlineAnswer } from './outline-answer.js';
import { outlinePrompt, systemMessage, type PartPrompt } from './prompts.js';
import { ModelWriterError } from './writer-error.js';

/** What the model wrote. */
export interface ModelDraft {
  title: string;
  html: string;
  /** The model writer runs no Polish: with `autoPolish` this repeats `html`, else null (spec). */
  polishedHtml: string | null;
  /** Words a reader sees in `html`: the words billed. */
  words: number;
  /** The statusDetail steps it went through. */
  steps: string[];
}

/** Called as each step starts: its statusDetail and the fraction of the article done (below 1). */
export type ReportStep = (statusDetail: string, progress: number) => void;

/**
 * The model's answers so far for one article: the outline, and each part's answer in the order of
 * the parts. Kept on its record, and so in the state file: an article resumed after a restart asks
 * the model only for the parts still missing (GPU time is what a model writer pays, once). Saved
 * answers are used only when they have this shape; those of an older or edited state file are
 * not, and the article is written anew.
 */
const writtenSoFarSchema = z.object({
  outline: z.object({ title: z.string(), sections: z.array(z.object({ title: z.string(), subsections: z.array(z.string()) })) }),
  answers: z.array(z.string()),
});

export type WrittenSoFar = z.infer<typeof writtenSoFarSchema>;

/** Where the answers so far come from and are kept. */
export interface KeptAnswers {
  saved: WrittenSoFar | undefined;
  keep(written: WrittenSoFar): void;
}

const OUTLINE_STEP = 'Creating the outline';

/** The title and the sections to write, from the request and the model's outline answer. */
async function planOutline(request: ArticleRequest, chat: ChatCompletions, signal: AbortSignal): Promise<PartPrompt> {
  const shape = articleShape(request);
  const answer = await chat.complete({
    messages: [systemMessage(request), { role: 'user', content: outlinePrompt(request, shape) }],
    maxTokens: 120 + shape.count * 40,
    doing: 'creating the outline',
    signal,
  });
  const parsed = parseOutlineAnswer(answer, shape.count);
  const sections = shape.fixedSections ?? parsed.sections;
  if (sections.length === 0) {
    throw new ModelWriterError('writer_bad_answer', `The writer's outline for "${request.targetKeyword}" had no numbered headings, so there was nothing to write. A larger or instruction-tuned model follows the outline format; check --writer-model.`);
  }
  return { title: request.title ?? parsed.title ?? titleCase(request.targetKeyword), sections };
}

/** Write the article, from what `kept` saved of an earlier attempt. Throws ModelWriterError when a call fails. */
export async function writeWithModel(request: ArticleRequest, chat: ChatCompletions, report: ReportStep, signal: AbortSignal, kept?: KeptAnswers): Promise<ModelDraft> {
  report(OUTLINE_STEP, 0.01);
  const saved = writtenSoFarSchema.safeParse(kept?.saved).data;
  const outline = saved?.outline ?? (await planOutline(request, chat, signal));
  const answers = [...(saved?.answers ?? [])];
  kept?.keep({ outline, answers: [...answers] });
  const shape = articleShape(request);
  const parts = articleParts(request, shape, outline);
  const steps = [OUTLINE_STEP];
  const blocks = [`<h1>${escapeHtml(outline.title)}</h1>`];
  const system = systemMessage(request);
  for (const [index, part] of parts.entries()) {
    steps.push(part.step);
    report(part.step, Math.round(((index + 1) / (parts.length + 1)) * 1000) / 1000);
    let answer = answers[index];
    if (answer === undefined) {
      answer = await chat.complete({ messages: [system, { role: 'user', content: part.prompt }], maxTokens: part.maxTokens, doing: part.doing, signal });
      answers.push(answer);
      kept?.keep({ outline, answers: [...answers] });
    }
    blocks.push(...[part.before, markdownToHtml(answer, part.markdown), part.after].filter((html) => html !== ''));
  }
  const sources = sourcesHtml(request);
  if (sources !== '') blocks.push(sources);
  const html = `${blocks.join('\n')}\n`;
  return { title: outline.title, html, polishedHtml: request.autoPolish ? html : null, words: countHtmlWords(html), steps };
}
