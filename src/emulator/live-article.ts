// An article written live by the model writer, with the account's internal links: what the workers run when a writer URL is set.
import { countHtmlWords } from '../contract/word-count.js';
import { flawedOutput, withInternalLinks } from './article-output.js';
import type { ArticleDraft, ArticleRecord, ReportStep } from './article-store.js';
import type { EmulatorContext } from './context.js';
import type { ModelWriter, WrittenSoFar } from './model-writer/index.js';

/**
 * Write `record` with `writer`, from the answers it kept of an earlier attempt (a restart); each
 * new answer is kept on the record and the state file is told to save it. Rejects with the
 * writer's `{ code, message }` error.
 */
export async function writeLive(ctx: Pick<EmulatorContext, 'accounts' | 'articles' | 'modelWriter' | 'persist'>, writer: ModelWriter, record: ArticleRecord, report: ReportStep, signal: AbortSignal): Promise<ArticleDraft & { words: number }> {
  const keep = (written: WrittenSoFar): void => {
    record.written = written;
    ctx.persist();
  };
  const kept = { saved: record.written, keep };
  const draft = await writer.write(record.request, report, signal, kept);
  const linked = withInternalLinks(ctx, record, { html: draft.html, polishedHtml: draft.polishedHtml });
  if (record.flaws === undefined) return { steps: draft.steps, html: linked.html, polishedHtml: linked.polishedHtml, words: draft.words };
  // Planted flaws (the `flaws` option) change the text the model wrote: the words billed are those delivered.
  const flawed = flawedOutput(ctx, { request: record.request, flaws: record.flaws }, linked);
  return { steps: draft.steps, html: flawed.html, polishedHtml: flawed.polishedHtml, words: countHtmlWords(flawed.html) };
}
