// What an article shows: its written draft with internal links, and its status record with signed image URLs.
import type { ArticleRecord } from './article-store.js';
import type { EmulatorContext } from './context.js';
import { insertLinksInText } from './internal-links.js';
import type { ArticleStatusRecord } from './running-emulator.js';
import { canonicalJsonHash } from '../contract/canonical-json.js';
import { countHtmlWords } from '../contract/word-count.js';
import type { ArticleFlaws } from './flaw-options.js';
import { withFlaws } from './flawed-html.js';
import { writeArticle, type WrittenArticle } from './placeholder-writer/index.js';

/** Image URLs are stored as tokens and resolved per answer (origin and expiry may change). */
const IMAGE_TOKEN = 'emulator-image:';
const IMAGE_TOKEN_PATTERN = /emulator-image:([0-9a-f]{16}-p?\d{1,4}-\d{1,4}x\d{1,4})/g;

/** The HTML with the account's internal links when the article asked for them. */
export function withInternalLinks<T extends { html: string; polishedHtml: string | null }>(ctx: Pick<EmulatorContext, 'accounts'>, record: Pick<ArticleRecord, 'account' | 'request'>, written: T): T {
  const domainId = record.request.articleType === 'blog_post' ? record.request.internalLinkingDomainId : undefined;
  const domain = domainId === undefined ? undefined : ctx.accounts.byName(record.account)?.domains.get(domainId);
  if (domain === undefined) return written;
  return {
    ...written,
    html: insertLinksInText(written.html, domain.pages, 'html').content,
    polishedHtml: written.polishedHtml === null ? null : insertLinksInText(written.polishedHtml, domain.pages, 'html').content,
  };
}

/** The article as the deterministic writer writes it, with the account's internal links when it asked for them. */
function cleanDraftOf(ctx: Pick<EmulatorContext, 'accounts'>, record: Pick<ArticleRecord, 'account' | 'request'>): WrittenArticle {
  return withInternalLinks(ctx, record, writeArticle(record.request, { imageUrl: (image) => IMAGE_TOKEN + image.id }));
}

/**
 * The HTML (and polished HTML) with the record's planted flaws. A copy takes the copied article's
 * text as the placeholder writer writes it (without its own flaws: the same whenever it is asked),
 * or, for the model writer, its output once finished.
 */
export function flawedOutput<T extends { html: string; polishedHtml: string | null }>(ctx: Pick<EmulatorContext, 'accounts' | 'articles' | 'modelWriter'>, record: Pick<ArticleRecord, 'request'> & { flaws: ArticleFlaws }, written: T): T {
  const source = record.flaws.copyOf === undefined ? undefined : ctx.articles.get(record.flaws.copyOf);
  const copied = source === undefined ? undefined : ctx.modelWriter === undefined ? cleanDraftOf(ctx, source).html : source.output?.html;
  const context = { request: record.request, seed: canonicalJsonHash(record.request), copied };
  return {
    ...written,
    html: withFlaws(written.html, record.flaws.kinds, context),
    polishedHtml: written.polishedHtml === null ? null : withFlaws(written.polishedHtml, record.flaws.kinds, context),
  };
}

/** The article as the deterministic writer writes it, with its internal links and its planted flaws (the `flaws` option). */
export function draftOf(ctx: Pick<EmulatorContext, 'accounts' | 'articles' | 'modelWriter'>, record: Pick<ArticleRecord, 'account' | 'request' | 'flaws'>): WrittenArticle {
  const written = cleanDraftOf(ctx, record);
  if (record.flaws === undefined) return written;
  const flawed = flawedOutput(ctx, { request: record.request, flaws: record.flaws }, written);
  return { ...flawed, words: countHtmlWords(flawed.html) };
}

/** The draft a worker writes out: the one billed at creation, else written again (the writer is deterministic). */
export function takeDraft(ctx: Pick<EmulatorContext, 'accounts' | 'articles' | 'modelWriter' | 'pendingDrafts'>, record: ArticleRecord): WrittenArticle {
  const draft = ctx.pendingDrafts.get(record.id) ?? draftOf(ctx, record);
  ctx.pendingDrafts.delete(record.id);
  return draft;
}

function resolveImages(ctx: Pick<EmulatorContext, 'options' | 'origin' | 'signer'>, html: string, record: ArticleRecord): string {
  const ttl = ctx.options.imageUrlTtlMs;
  const expiresAt = ttl === undefined ? undefined : (record.finishedAt ?? record.updatedAt) + ttl;
  return html.replace(IMAGE_TOKEN_PATTERN, (_, id: string) => ctx.origin + ctx.signer.path(id, expiresAt));
}

/** The status record as `GET /api/articles/{id}` answers it, with image URLs signed for now. */
export function statusRecord(ctx: Pick<EmulatorContext, 'options' | 'origin' | 'signer'>, record: ArticleRecord): ArticleStatusRecord {
  const answer: ArticleStatusRecord = {
    articleId: record.id,
    config: record.request,
    status: record.status,
    statusDetail: record.statusDetail,
    updatedAt: record.updatedAt,
    progress: record.progress,
    error: record.error,
  };
  if (record.status === 'finished' && record.output !== undefined) {
    const polishedHtml = record.output.polishedHtml;
    answer.output = {
      html: resolveImages(ctx, record.output.html, record),
      polishedHtml: polishedHtml === null ? null : resolveImages(ctx, polishedHtml, record),
    };
  }
  return answer;
}
