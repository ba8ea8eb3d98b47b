// Creates whose outcome is unknown: the one explanation every surface gives (build log, plan, status, verify, panel, summary).

/** A lock entry whose create may have been billed without its id coming back. */
export interface UnknownCreate {
  slug: string;
  keyword: string;
}

/** The command that attaches the id found on the service's queue page (free). */
export function adoptCommand(slug: string): string {
  return `npx astro-article-loader adopt ${slug} <articleId>`;
}

/** The ways to pay for it again, on purpose. */
export function retryUnknownCommand(slug: string): string {
  return `npx astro-article-loader sync --retry-unknown=${slug}`;
}

/**
 * Why an unknown create stays off the site and the two ways out, for `count` of them. Nothing
 * resolves it by itself: a later build cannot know whether the service created it.
 */
export function unknownCreatesExplanation(count: number): string {
  const them = count === 1 ? 'it' : 'them';
  return (
    `${count === 1 ? 'Its create' : 'Their creates'} may have been billed, but no article id came back, so ${them} stay${count === 1 ? 's' : ''} off the site ` +
    `and no later build resolves ${them} by itself. For each: find the article for its keyword on the service's queue page and run ` +
    '`npx astro-article-loader adopt <slug> <articleId>` (free), or pay for a new one with `--retry-unknown=<slug>` ' +
    "(CLI sync) or the loader option `retryUnknown: ['<slug>']`."
  );
}

/** Lines naming each unknown create with its own commands; `[]` when there are none. */
export function unknownCreatesLines(unknown: readonly UnknownCreate[], limit = 20): string[] {
  if (unknown.length === 0) return [];
  const lines = [
    `${unknown.length === 1 ? '1 article' : `${unknown.length} articles`} may have been created and billed without an id: ${unknownCreatesExplanation(unknown.length)}`,
  ];
  for (const { slug, keyword } of unknown.slice(0, limit)) {
    lines.push(`  - ${slug} (${JSON.stringify(keyword)}): ${adoptCommand(slug)}   or   ${retryUnknownCommand(slug)}`);
  }
  if (unknown.length > limit) lines.push(`  - … and ${unknown.length - limit} more (\`npx astro-article-loader plan\` lists them all)`);
  return lines;
}
