// What the toolbar's buttons do to one article (Edit, Regenerate, Approve): the same code as the CLI's commands, under the same rules and lock.
import { ArticleLoaderError } from '../errors.js';
import { loaderRuntime, type QueueSnapshot, type RegenerationAnswer, type RuntimeSession } from '../loader/runtime.js';
import { shortPath } from '../loader/short-path.js';
import { approve } from '../review/approvals.js';
import { startEdit } from '../sync/index.js';
import type { PanelAction } from './panel-state.js';

export interface PanelRequest {
  action: PanelAction;
  collection: string;
  slug: string;
  /** Regenerate: false asks for the estimate only; true creates the new article. */
  confirm?: boolean;
}

export type PanelAnswer =
  | { action: 'approve'; slug: string; output: string | null; changed: boolean }
  | { action: 'edit'; slug: string; file: string; polished: boolean }
  | ({ action: 'regenerate' } & RegenerationAnswer);

/** Refused with a message the panel shows as it is (the slug is not there, the rule forbids it). */
export class PanelActionError extends ArticleLoaderError {
  readonly status: number;

  constructor(code: string, message: string, status = 409) {
    super(code, message);
    this.status = status;
  }
}

/** The collection's queue, with the slug among its articles: the panel acts only on what it lists. */
function articleOf(request: PanelRequest): QueueSnapshot {
  const snapshot = loaderRuntime().queues.get(request.collection);
  if (snapshot === undefined) throw new PanelActionError('unknown_collection', `no article collection "${request.collection}" is loaded in this dev server.`, 404);
  if (!snapshot.articles.some((article) => article.slug === request.slug)) {
    throw new PanelActionError('unknown_slug', `"${request.slug}" is not an article of the collection "${request.collection}" (${snapshot.manifest}).`, 404);
  }
  return snapshot;
}

/** The dev server's session of the request's collection in the project at `root`. */
function sessionOf(request: PanelRequest, root: string): RuntimeSession | undefined {
  return [...loaderRuntime().sessions.values()].find((session) => session.root === root && session.collection === request.collection);
}

/** Runs one action for the project at `root`; a refusal throws an ArticleLoaderError whose message says what to do. */
export async function runPanelAction(request: PanelRequest, root: string): Promise<PanelAnswer> {
  const snapshot = articleOf(request);
  switch (request.action) {
    case 'approve': {
      // The CLI's approve: the output served now, recorded under the inter-process lock, written atomically.
      const project = { lockFile: snapshot.lockFile, slugs: snapshot.articles.map((article) => article.slug), manifestName: snapshot.manifest };
      const [change] = await approve(project, [request.slug]);
      // The dev server shows it published at once, even when the approval was written during a pass.
      if (change?.changed === true) void sessionOf(request, root)?.refresh?.();
      return { action: 'approve', slug: request.slug, output: change?.output ?? null, changed: change?.changed ?? false };
    }
    case 'edit': {
      const edit = await startEdit(snapshot.lockFile, request.slug, { shown: (path) => shortPath(path, root) });
      return { action: 'edit', slug: request.slug, file: shortPath(edit.file, root), polished: edit.polished };
    }
    case 'regenerate': {
      const session = sessionOf(request, root);
      if (session?.regenerate === undefined) {
        throw new PanelActionError('regenerate_unavailable', `the collection "${request.collection}" cannot regenerate from the toolbar here; run: npx astro-article-loader regenerate ${request.slug}`);
      }
      return { action: 'regenerate', ...(await session.regenerate(request.slug, { confirm: request.confirm === true })) };
    }
  }
}
