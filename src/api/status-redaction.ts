// A status record as the client keeps it: the API key removed from every part the service wrote, and reported when it was there.
import type { ArticleOperation } from './attempt-failure.js';
import { shownLine } from '../lang/shown-line.js';
import { redactedValue } from './secret-redactor.js';
import type { ArticleStatus } from '../contract/response-schema.js';

/** The client's secret: how to remove it from a text, and whether a text holds it (in any encoding). */
export interface SecretCheck {
  redact: (text: string) => string;
  found: (text: string) => boolean;
}

/** `status` redacted; `onSecretEchoed` is told when the service had put the key anywhere in it. */
export function keptStatus(
  status: ArticleStatus,
  secret: SecretCheck,
  onSecretEchoed: (info: { operation: ArticleOperation; where: string }) => void,
): ArticleStatus {
  const kept = redactedStatus(status, secret.redact);
  const html = status.status === 'finished' ? [status.output.html, status.output.polishedHtml ?? ''] : [];
  if ([status.statusDetail, JSON.stringify(status.error ?? null), JSON.stringify(status.config), ...html].some(secret.found)) {
    onSecretEchoed({ operation: 'getArticle', where: `the status record for "${kept.config.targetKeyword}"` });
  }
  return kept;
}

/**
 * The record with the key removed from everything the service wrote into it (and `statusDetail` made one line): `statusDetail`, every
 * string (and property name) of `error` and `config`, and the output's HTML. The record is stored in
 * the lock file and the cache and published on the site, and a service that echoes the
 * Authorization header would otherwise put the key there. The article itself is kept (it was paid
 * for), with `[redacted]` where the key was.
 */
function redactedStatus(status: ArticleStatus, redact: (text: string) => string): ArticleStatus {
  const kept = {
    ...status,
    // Shown as it is by sync, status and the toolbar: one line, no escape sequences, at most 200 characters.
    statusDetail: shownLine(redact(status.statusDetail), 200),
    error: redactedValue(status.error, redact) as ArticleStatus['error'],
    config: redactedValue(status.config, redact) as ArticleStatus['config'],
  };
  if (kept.status !== 'finished') return kept;
  const { html, polishedHtml } = kept.output;
  return { ...kept, output: { ...kept.output, html: redact(html), polishedHtml: polishedHtml === null ? null : redact(polishedHtml) } } as ArticleStatus;
}
