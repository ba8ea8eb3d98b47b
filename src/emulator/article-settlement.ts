// When an article is finished or failed: settle its ledger entry, send its webhooks, record its CMS draft.
import type { ArticleRecord } from './article-store.js';
import { statusRecord } from './article-output.js';
import type { EmulatorContext } from './context.js';

/** Settle the ledger and tell the article's webhook URL and integration how it ended. */
export function settleArticle(ctx: EmulatorContext, record: ArticleRecord): void {
  ctx.ledger.settleCreation(record.id, record.status === 'finished' ? 'finished' : 'failed', record.wordsWritten);
  const event = record.status === 'finished' ? 'article.finished' : 'article.failed';
  const payload = statusRecord(ctx, record);
  if (record.request.webhookUrl !== undefined) {
    ctx.webhooks.send({ kind: 'webhook_url', url: record.request.webhookUrl }, record.id, event, payload);
  }
  const integrationId = record.request.integrationId;
  const integration = integrationId === undefined ? undefined : ctx.accounts.byName(record.account)?.integrations.get(integrationId);
  if (integration?.type === 'custom_webhook' && integration.url !== undefined && integration.secret !== undefined) {
    ctx.webhooks.send({ kind: 'integration', url: integration.url, integrationId: integration.id, secret: integration.secret }, record.id, event, payload);
  } else if (integration?.type === 'cms' && record.status === 'finished') {
    ctx.drafts.push({ articleId: record.id, integrationId: integration.id, account: record.account, title: titleOf(record.output?.html ?? ''), at: Date.now() });
  }
}

function titleOf(html: string): string {
  const match = /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(html);
  return (match?.[1] ?? '').replace(/<[^>]+>/g, '').trim();
}
