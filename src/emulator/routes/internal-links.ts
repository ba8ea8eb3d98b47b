// The internal-links route: POST /api/internal-links/ links a text to a domain's pages for one credit.
import type { IncomingMessage } from 'node:http';
import { internalLinkRequestSchema } from '../../contract/response-schema.js';
import { planAllowsInternalLinks, type Account } from '../accounts.js';
import { failure, invalidFields, json, type RouteResult } from '../answer.js';
import { remainingCredits } from '../balances.js';
import type { EmulatorContext } from '../context.js';
import { insertLinksInText, looksLikeHtml } from '../internal-links.js';
import { parseJsonBody } from './json-body.js';

/** POST /api/internal-links/ */
export async function internalLinks(ctx: EmulatorContext, req: IncomingMessage, account: Account): Promise<RouteResult> {
  if (!planAllowsInternalLinks(account.plan)) {
    return { answer: failure(403, 'plan_required', `Internal links need the professional plan; this account is on the ${account.plan} plan. Upgrade the plan or turn internal links off.`) };
  }
  const parsed = await parseJsonBody(req, ctx.maxBodyBytes, internalLinkRequestSchema);
  if ('answer' in parsed) return parsed;
  const { content, format, domainId } = parsed.data;
  const domain = account.domains.get(domainId);
  if (domain === undefined) {
    return { answer: invalidFields([{ path: 'domainId', message: `no domain "${domainId}" is registered in the link tool for this account` }]) };
  }
  if (remainingCredits(ctx.ledger, account) < 1) {
    return { answer: failure(402, 'insufficient_credits', 'The account has no internal-link credits left (1 credit per request); top up the credits.') };
  }
  const syntax = format === 'markdown' ? 'markdown' : format === 'html' || looksLikeHtml(content) ? 'html' : 'markdown';
  const result = insertLinksInText(content, domain.pages, syntax);
  ctx.ledger.recordLinkCharge({ account: account.name, domainId, format, at: Date.now(), credits: 1, links: result.links.length });
  if (format === 'json') return { answer: json(200, { links: result.links, wordsAnalysed: result.wordsAnalysed }) };
  return {
    answer: {
      status: 200,
      body: result.content,
      contentType: format === 'html' ? 'text/html; charset=utf-8' : 'text/markdown; charset=utf-8',
      json: false,
    },
  };
}
