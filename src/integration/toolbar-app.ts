/// <reference lib="dom" />
// The dev toolbar's Articles app (runs in the browser): every manifest entry with its state, updated live, in the toolbar's look.
import { defineToolbarApp } from 'astro/toolbar';
import type { QueueArticle } from '../loader/index.js';
import { adoptCommand, retryUnknownCommand } from '../sync/unknown-creates.js';
import { RowActions, type ActionTarget, type RowAction } from './panel-row-actions.js';
import { countQueue, REFRESH_EVENT, STATE_EVENT, STATE_ORDER, TOOLBAR_APP_ID, type ArticleState, type PanelCollection, type PanelState } from './panel-state.js';

type Placement = 'bottom-left' | 'bottom-center' | 'bottom-right';
type BadgeStyle = 'purple' | 'gray' | 'red' | 'green' | 'yellow' | 'blue';

const STATE_LABEL: Record<ArticleState, string> = { reused: 'reused', queued: 'queued', processing: 'writing', finished: 'finished', failed: 'failed', unknown: 'unknown' };
const STATE_BADGE: Record<ArticleState, BadgeStyle> = { reused: 'gray', queued: 'yellow', processing: 'blue', finished: 'green', failed: 'red', unknown: 'red' };

// The toolbar's own palette (its window, cards and badges are dark whatever the page's colour scheme),
// so the panel matches the other apps on light and dark pages alike.
const STYLE = `
  astro-dev-toolbar-window {
    color-scheme: dark;
    width: min(680px, calc(100% - 32px));
    max-height: min(620px, calc(100vh - 96px));
    --text: rgba(191, 193, 201, 1);
    --muted: rgba(145, 152, 173, 1);
    --line: rgba(35, 38, 45, 1);
    --strong: #fff;
    --purple: rgba(224, 204, 250, 1);
    --accent: rgba(136, 58, 234, 1);
    --blue: rgba(189, 195, 255, 1);
    --blue-fill: rgba(54, 69, 217, 1);
    --red: rgba(249, 196, 215, 1);
    --yellow: rgba(249, 233, 196, 1);
    --green: rgba(213, 249, 196, 1);
  }
  header { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
  header h1 { margin: 0 auto 0 0; font-size: 22px; font-weight: 600; color: var(--strong); }
  .badges { display: flex; gap: 6px; flex-wrap: wrap; }
  .notes { margin: 10px 0 0; display: grid; gap: 4px; font-size: 13px; line-height: 1.45; }
  .notes p { margin: 0; }
  .notes .offline { color: var(--purple); }
  .notes .frozen { color: var(--yellow); }
  .notes .problem { color: var(--red); }
  .notes code { font-family: ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, monospace; font-size: 12px; }
  .overview { margin: 4px 0 0; font-size: 13px; color: var(--muted); }
  .overview code { font-family: ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, monospace; font-size: 12px; color: var(--text); }
  .stats { display: grid; grid-template-columns: repeat(5, minmax(0, 1fr)); gap: 8px; margin: 14px 0 12px; }
  .stats astro-dev-toolbar-card { display: block; }
  .stat { display: block; text-align: left; }
  .stat b { display: block; font-size: 18px; font-weight: 600; color: var(--strong); font-variant-numeric: tabular-nums; }
  .stat small { display: block; margin-top: 2px; font-size: 12px; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .list { overflow-y: auto; min-height: 0; flex: 1 1 auto; margin: 0 -8px; padding: 0 8px; }
  .collection h2 { margin: 12px 0 6px; font-size: 13px; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
  .collection h2 span { text-transform: none; letter-spacing: 0; font-weight: 400; }
  ol { list-style: none; margin: 0; padding: 0; }
  li.article { display: grid; grid-template-columns: 76px minmax(0, 1fr) auto; column-gap: 12px; row-gap: 4px; align-items: center; padding: 9px 4px; border-top: 1px solid var(--line); }
  li.article:first-child { border-top: none; }
  li.article astro-dev-toolbar-badge { justify-self: start; }
  .keyword { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; color: var(--strong); text-decoration: none; font-size: 14px; }
  .keyword:hover, .keyword:focus-visible { text-decoration: underline; color: var(--purple); outline: none; }
  .words { font-size: 12px; color: var(--muted); font-variant-numeric: tabular-nums; white-space: nowrap; text-align: right; }
  .publish-date { font-size: 12px; color: var(--muted); margin-left: 4px; white-space: nowrap; }
  .words.billed { color: var(--text); }
  .words.refunded { text-decoration: line-through; }
  .detail { grid-column: 2 / 4; min-width: 0; font-size: 12px; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .detail.path { font-family: ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, monospace; }
  .detail.error { color: var(--red); white-space: normal; }
  .progress { grid-column: 2 / 4; display: grid; grid-template-columns: minmax(0, 1fr) 3em; align-items: center; column-gap: 12px; row-gap: 6px; }
  .progress .text { grid-column: 1 / 3; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-size: 12px; color: var(--blue); }
  .progress .track { grid-column: 1 / 2; height: 4px; border-radius: 2px; background: rgba(52, 56, 65, 1); overflow: hidden; }
  .progress .fill { height: 100%; width: 0; border-radius: 2px; background: linear-gradient(90deg, var(--blue-fill), var(--accent)); transition: width 0.4s ease; }
  .progress .percent { grid-column: 2 / 3; font-size: 12px; line-height: 1; color: var(--text); text-align: right; font-variant-numeric: tabular-nums; }
  .findings { grid-column: 2 / 4; margin: 0; padding: 0; list-style: none; display: grid; gap: 2px; font-size: 12px; line-height: 1.4; }
  .findings li { color: var(--yellow); }
  .findings li.error { color: var(--red); }
  .findings code { font-family: ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, monospace; font-size: 11px; }
  .actions { grid-column: 2 / 4; display: grid; gap: 6px; }
  .actions:empty, .actions .buttons:empty, .actions .result:empty { display: none; }
  .actions .buttons { display: flex; gap: 6px; flex-wrap: wrap; }
  .actions .result { font-size: 12px; line-height: 1.45; color: var(--text); display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
  .actions .result.error { color: var(--red); }
  .actions .result code { font-family: ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, monospace; font-size: 12px; }
  .empty { margin: 8px 0; font-size: 14px; line-height: 1.5; color: var(--muted); }
  .empty code { color: var(--text); }
  @media (prefers-reduced-motion: reduce) { .progress .fill { transition: none; } }
  @media (max-width: 640px) { .stats { grid-template-columns: repeat(3, minmax(0, 1fr)); } }
`;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function badge(style: BadgeStyle, text: string, attributes: Record<string, string> = {}): HTMLElement {
  return element('astro-dev-toolbar-badge', { 'badge-style': style, size: 'small', ...attributes }, text);
}

const numbers = new Intl.NumberFormat();

/** Only same-site paths and http(s) URLs become links: `url(slug)` is the site's own code, but a link must never run script. */
function safeHref(url: string): string {
  return /^(?:\/(?!\/)|https?:\/\/)/i.test(url) ? url : '#';
}

/** The placement the user chose in the toolbar's settings (the window element alone would default to the centre). */
function toolbarPlacement(): Placement {
  const valid = (value: unknown): value is Placement => value === 'bottom-left' || value === 'bottom-center' || value === 'bottom-right';
  try {
    const stored = (JSON.parse(localStorage.getItem('astro:dev-toolbar:settings') ?? '{}') as { placement?: unknown }).placement;
    if (valid(stored)) return stored;
  } catch {
    // Unreadable settings: fall through to the config's placement.
  }
  const configured = (window as { __astro_dev_toolbar__?: { placement?: unknown } }).__astro_dev_toolbar__?.placement;
  return valid(configured) ? configured : 'bottom-center';
}

/** The marks an article may carry besides its state: what a build does with it. */
const MARK_BADGE: Record<NonNullable<QueueArticle['marks']>[number], { style: BadgeStyle; title: string }> = {
  draft: { style: 'yellow', title: 'draft: shown here, left out of `astro build` unless the loader option drafts is on' },
  scheduled: { style: 'blue', title: 'scheduled: its publishDate is later than now; left out of `astro build` until then, unless drafts is on' },
  edited: { style: 'green', title: 'edited: served from the hand edit in articles.edits/ instead of the service’s article' },
};

/** The buttons an article offers: Approve while it waits for review; Regenerate and Edit once it has a finished article (Edit unless it has an edit). */
function offeredActions(article: QueueArticle): RowAction[] {
  const offered: RowAction[] = [];
  if (article.state === 'finished' || article.state === 'reused') {
    if (article.review === 'waiting') offered.push('approve');
    offered.push('regenerate');
    if (!(article.marks ?? []).includes('edited')) offered.push('edit');
  }
  return offered;
}

/** The findings under a row, errors first. */
function findingsList(findings: readonly NonNullable<QueueArticle['findings']>[number][]): HTMLElement[] {
  const sorted = [...findings].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return sorted.map((finding) => {
    const item = element('li', { class: finding.severity, 'data-finding': finding.code });
    item.append(element('code', {}, finding.code), ` ${finding.message}`);
    return item;
  });
}

/** When the article goes live (its publishDate, given or scheduled), in the reader's own format; nothing when it has no date. */
function publishDateCell(iso: string | undefined): HTMLElement[] {
  if (iso === undefined) return [];
  const date = new Date(iso);
  const future = date.getTime() > Date.now();
  const text = date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return [element('time', { class: 'publish-date', datetime: iso, title: `${future ? 'goes live' : 'live since'} ${date.toString()}` }, `${future ? 'goes live' : 'live since'} ${text}`)];
}

/** One article's row, updated in place so its progress bar moves instead of being redrawn. */
class ArticleRow {
  readonly root = element('li', { class: 'article' });
  readonly #badge = badge('gray', '');
  readonly #link = element('a', { class: 'keyword' });
  readonly #marks = element('span', { class: 'marks' });
  readonly #words = element('span', { class: 'words' });
  readonly #detail = element('div', { class: 'detail' });
  readonly #progress = element('div', { class: 'progress', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100' });
  readonly #progressText = element('span', { class: 'text' });
  readonly #fill = element('div', { class: 'fill' });
  readonly #percent = element('span', { class: 'percent' });
  readonly #findings = element('ul', { class: 'findings' });
  readonly #actions = new RowActions();

  constructor() {
    const track = element('div', { class: 'track' });
    track.append(this.#fill);
    this.#progress.append(this.#progressText, track, this.#percent);
    this.root.append(this.#badge, this.#link, this.#marks, this.#words);
  }

  update(article: QueueArticle, offline: boolean, target: ActionTarget | undefined): void {
    this.root.dataset.slug = article.slug;
    this.root.dataset.state = article.state;
    if (article.review === undefined) delete this.root.dataset.review;
    else this.root.dataset.review = article.review;
    this.#badge.setAttribute('badge-style', STATE_BADGE[article.state]);
    this.#badge.textContent = STATE_LABEL[article.state];
    this.#link.textContent = article.keyword;
    this.#link.href = safeHref(article.url);
    this.#link.title = `Open ${article.url}`;
    const marks = (article.marks ?? []).map((mark) => badge(MARK_BADGE[mark].style, mark, { 'data-mark': mark, title: MARK_BADGE[mark].title }));
    if (article.review === 'waiting') marks.push(badge('yellow', 'needs review', { 'data-mark': 'needs-review', title: 'left out of `astro build` until approved (review: true)' }));
    this.#marks.replaceChildren(...marks, ...publishDateCell(article.publishDate));
    this.#findings.replaceChildren(...findingsList(article.findings ?? []));
    this.#actions.update(target, offeredActions(article));
    const words = wordsCell(article, offline);
    this.#words.textContent = words.text;
    this.#words.className = `words ${words.kind}`;
    this.#words.title = words.title;
    if (article.state === 'processing' || article.state === 'queued') {
      const percent = Math.max(0, Math.min(100, Math.round(article.progress * 100)));
      this.#progressText.textContent = article.statusDetail ?? (article.state === 'queued' ? 'Waiting for the service to start writing…' : 'Writing…');
      this.#percent.textContent = `${percent}%`;
      this.#fill.style.width = `${percent}%`;
      this.#progress.setAttribute('aria-valuenow', String(percent));
      this.#progress.setAttribute('aria-label', `${article.keyword}: ${percent}%`);
      this.#detail.remove();
      if (this.#progress.parentNode !== this.root) this.#place(this.#progress);
      this.#appendBelow();
      return;
    }
    this.#progress.remove();
    if (article.state === 'failed') {
      const error = article.error;
      this.#detail.className = 'detail error';
      this.#detail.textContent = error === null ? 'Failed.' : `${error.message} (${error.code})`;
    } else if (article.state === 'unknown') {
      this.#detail.className = 'detail error';
      this.#detail.textContent =
        `May have been billed, but no id came back: off the site until you resolve it. Find the article on the service's queue page and run ` +
        `${adoptCommand(article.slug)} (free), or pay again: retryUnknown: ['${article.slug}'] or ${retryUnknownCommand(article.slug)}.`;
    } else {
      this.#detail.className = 'detail path';
      this.#detail.textContent = article.url;
    }
    if (this.#detail.parentNode !== this.root) this.#place(this.#detail);
    this.#appendBelow();
  }

  /** The detail or the progress bar: under the keyword, above the findings and the buttons. */
  #place(node: HTMLElement): void {
    this.root.insertBefore(node, this.#findings.parentNode === this.root ? this.#findings : null);
  }

  /** The findings and the buttons, last in the row (appended once; `:empty` hides them). */
  #appendBelow(): void {
    if (this.#findings.parentNode !== this.root) this.root.append(this.#findings);
    if (this.#actions.root.parentNode !== this.root) this.root.append(this.#actions.root);
  }
}

/** What an article cost while this server runs, as the row's right-hand column shows it. */
function wordsCell(article: QueueArticle, offline: boolean): { text: string; kind: string; title: string } {
  if (article.state === 'reused') return { text: 'cached', kind: '', title: 'Served from the committed cache: nothing billed' };
  if (article.wordsBilled === 0) return { text: '0 words', kind: '', title: 'Nothing billed for it while this server runs' };
  if (offline) return { text: 'free (offline)', kind: '', title: 'Written by the embedded emulator: nothing billed' };
  // Recorded once the article finished; until then the estimate from its request, marked ≈.
  const words = `${article.wordsRecorded ? '' : '≈'}${numbers.format(article.wordsBilled)} words`;
  if (article.state === 'failed') return { text: words, kind: 'refunded', title: 'The service gives a failed article’s words back' };
  if (article.state === 'unknown') return { text: `${words}?`, kind: '', title: 'The create may have been billed; its outcome is unknown' };
  if (article.wordsRecorded) return { text: words, kind: 'billed', title: 'Words billed for it (images included), as recorded in the lock file' };
  return { text: words, kind: 'billed', title: 'Estimated words billed for it (images included); the recorded figure replaces it once it finishes' };
}

function sortArticles(articles: readonly QueueArticle[]): QueueArticle[] {
  const rank = new Map(STATE_ORDER.map((state, index) => [state, index]));
  // What waits for review comes after what is being written or failed, before what is done.
  const rankOf = (article: QueueArticle): number => (article.review === 'waiting' && (article.state === 'finished' || article.state === 'reused') ? (rank.get('finished') ?? 0) - 0.5 : (rank.get(article.state) ?? 0));
  // Array.prototype.sort is stable: manifest order within each state.
  return [...articles].sort((a, b) => rankOf(a) - rankOf(b));
}

class ArticlesPanel {
  readonly window: HTMLElement;
  readonly #badges = element('div', { class: 'badges' });
  readonly #overview = element('p', { class: 'overview', 'data-overview': '' });
  readonly #notes = element('div', { class: 'notes' });
  readonly #stats = element('div', { class: 'stats' });
  readonly #statValues = new Map<string, { card: HTMLElement; value: HTMLElement; label: HTMLElement }>();
  readonly #list = element('div', { class: 'list' });
  readonly #sections = new Map<string, { section: HTMLElement; heading: HTMLElement; list: HTMLElement }>();
  readonly #rows = new Map<string, ArticleRow>();

  constructor(canvas: ShadowRoot) {
    const style = element('style', {}, STYLE);
    this.window = element('astro-dev-toolbar-window', { placement: toolbarPlacement(), role: 'region', 'aria-label': 'Articles', 'data-articles-panel': '' });
    const header = element('header');
    header.append(element('h1', {}, 'Articles'), this.#badges);
    for (const name of ['writing', 'finished', 'reused', 'failed', 'words']) {
      const card = element('astro-dev-toolbar-card', { 'card-style': 'gray' });
      const stat = element('span', { class: 'stat', 'data-stat': name });
      const value = element('b');
      const label = element('small');
      stat.append(value, label);
      card.append(stat);
      this.#stats.append(card);
      this.#statValues.set(name, { card, value, label });
    }
    this.window.append(header, this.#overview, this.#notes, this.#stats, this.#list);
    canvas.append(style, this.window);
    this.#overview.hidden = true;
    this.#notes.hidden = true;
    this.#stats.hidden = true;
    this.#empty('Waiting for the dev server…');
  }

  place(placement: Placement): void {
    this.window.setAttribute('placement', placement);
  }

  #empty(text: string, hint = false): void {
    const paragraph = element('p', { class: 'empty' }, text);
    if (hint) {
      paragraph.append(' Add ', element('code', {}, 'articleLoader()'), ' to a collection in ', element('code', {}, 'src/content.config.ts'), '.');
    }
    this.#list.replaceChildren(paragraph);
    this.#sections.clear();
    this.#rows.clear();
  }

  render(state: PanelState): void {
    const collections = state.collections;
    this.#renderBadges(collections);
    this.#renderOverview(collections);
    this.#renderNotes(collections, state.emulator);
    this.#renderStats(collections);
    if (collections.length === 0) {
      this.#empty('No article collection has loaded yet.', true);
      return;
    }
    const seenRows = new Set<string>();
    const sections: HTMLElement[] = [];
    for (const collection of collections) {
      const section = this.#section(collection.collection);
      section.heading.hidden = collections.length === 1;
      section.heading.replaceChildren(collection.collection, ' ', element('span', {}, `· ${collection.manifest}`));
      const rows: HTMLElement[] = [];
      for (const article of sortArticles(collection.articles)) {
        const key = `${collection.collection}\u0000${article.slug}`;
        seenRows.add(key);
        let row = this.#rows.get(key);
        if (row === undefined) {
          row = new ArticleRow();
          this.#rows.set(key, row);
        }
        row.update(article, collection.mode === 'offline', state.actions === null ? undefined : { collection: collection.collection, slug: article.slug, token: state.actions.token });
        rows.push(row.root);
      }
      if (rows.length === 0) rows.push(element('li', { class: 'empty' }, `${collection.manifest} lists no articles yet.`));
      reorder(section.list, rows);
      sections.push(section.section);
    }
    for (const key of [...this.#rows.keys()]) if (!seenRows.has(key)) this.#rows.delete(key);
    const names = new Set(collections.map((c) => c.collection));
    for (const name of [...this.#sections.keys()]) if (!names.has(name)) this.#sections.delete(name);
    reorder(this.#list, sections);
  }

  #section(name: string): { section: HTMLElement; heading: HTMLElement; list: HTMLElement } {
    let entry = this.#sections.get(name);
    if (entry === undefined) {
      const section = element('section', { class: 'collection', 'data-collection': name });
      const heading = element('h2');
      const list = element('ol');
      section.append(heading, list);
      entry = { section, heading, list };
      this.#sections.set(name, entry);
    }
    return entry;
  }

  #renderBadges(collections: readonly PanelCollection[]): void {
    const badges: HTMLElement[] = [];
    if (collections.length > 0) {
      const offline = collections.some((c) => c.mode === 'offline');
      badges.push(badge(offline ? 'purple' : 'gray', offline ? 'offline · emulator' : 'service', { 'data-badge': 'mode' }));
      if (collections.some((c) => c.frozen)) badges.push(badge('yellow', 'frozen', { 'data-badge': 'frozen' }));
      else badges.push(badge('gray', `budget ${collections.map((c) => numbers.format(c.budget)).join(' / ')}`, { 'data-badge': 'budget' }));
      if (collections.some((c) => c.running)) badges.push(badge('blue', 'syncing', { 'data-badge': 'running' }));
    }
    this.#badges.replaceChildren(...badges);
  }

  /** `articles.yaml · 7 articles · 8 requests to the service` */
  #renderOverview(collections: readonly PanelCollection[]): void {
    this.#overview.hidden = collections.length === 0;
    if (collections.length === 0) return;
    const counts = countQueue(collections);
    const requests = collections.reduce((sum, c) => sum + c.totals.requests, 0);
    const parts: (string | HTMLElement)[] = [];
    collections.forEach((collection, index) => {
      if (index > 0) parts.push(', ');
      parts.push(element('code', {}, collection.manifest));
    });
    parts.push(` · ${numbers.format(counts.articles)} ${counts.articles === 1 ? 'article' : 'articles'}`);
    parts.push(` · ${numbers.format(requests)} ${requests === 1 ? 'request' : 'requests'} to the service`);
    this.#overview.replaceChildren(...parts);
  }

  #renderNotes(collections: readonly PanelCollection[], emulator: PanelState['emulator']): void {
    const notes: HTMLElement[] = [];
    if (collections.some((c) => c.mode === 'offline')) {
      const note = element('p', { class: 'offline', 'data-note': 'offline' }, 'Offline mode: no API key or service address is set, so the embedded emulator ');
      if (emulator !== null) note.append('at ', element('code', {}, emulator.url), ' ');
      note.append('writes placeholder articles for free.');
      notes.push(note);
    }
    if (collections.some((c) => c.frozen)) {
      notes.push(element('p', { class: 'frozen', 'data-note': 'frozen' }, 'Frozen: nothing new is created (frozen: true, or CI is set); new keywords wait until it is off.'));
    }
    for (const collection of collections) {
      if (collection.problem !== null) {
        const prefix = collections.length > 1 ? `${collection.collection}: ` : '';
        notes.push(element('p', { class: 'problem', 'data-note': 'problem' }, `${prefix}${collection.problem}`));
      }
    }
    const changed = collections.filter((c) => c.changed);
    if (changed.length > 0) {
      const note = element('p', { 'data-note': 'commit' }, 'Commit ');
      changed.forEach((collection, index) => {
        if (index > 0) note.append(', ');
        note.append(element('code', {}, collection.lockFile), ' and ', element('code', {}, `${collection.cacheDir}/`));
      });
      note.append(': they keep the articles paid for.');
      notes.push(note);
    }
    this.#notes.replaceChildren(...notes);
    this.#notes.hidden = notes.length === 0;
  }

  #renderStats(collections: readonly PanelCollection[]): void {
    this.#stats.hidden = collections.length === 0;
    if (collections.length === 0) return;
    const counts = countQueue(collections);
    const offline = collections.every((c) => c.mode === 'offline');
    const figures: Record<string, [string, string]> = {
      writing: [numbers.format(counts.byState.processing + counts.byState.queued), 'in progress'],
      finished: [numbers.format(counts.byState.finished), 'finished'],
      reused: [numbers.format(counts.byState.reused), 'reused'],
      failed: [numbers.format(counts.byState.failed + counts.byState.unknown), counts.byState.unknown > 0 ? `failed or unknown` : 'failed'],
      words: offline ? ['0', 'billed (offline)'] : [`${counts.estimated ? '≈' : ''}${numbers.format(counts.wordsBilled)}`, 'words billed'],
    };
    for (const [name, [value, label]] of Object.entries(figures)) {
      const stat = this.#statValues.get(name);
      if (stat === undefined) continue;
      stat.value.textContent = value;
      stat.label.textContent = label;
      stat.card.setAttribute('card-style', name === 'failed' && counts.byState.failed + counts.byState.unknown > 0 ? 'red' : 'gray');
    }
  }
}

/** Puts `children` into `parent` in order, moving only what is out of place (a moved row would restart its progress bar's transition). */
function reorder(parent: HTMLElement, children: readonly HTMLElement[]): void {
  children.forEach((child, index) => {
    const current = parent.children[index];
    if (current !== child) parent.insertBefore(child, current ?? null);
  });
  while (parent.children.length > children.length) parent.lastElementChild?.remove();
}

const OPEN_KEY = `${TOOLBAR_APP_ID}:open`;

function rememberOpen(open: boolean): void {
  try {
    sessionStorage.setItem(OPEN_KEY, open ? '1' : '0');
  } catch {
    // Storage disabled: the panel just does not reopen by itself.
  }
}

function wasOpen(): boolean {
  try {
    return sessionStorage.getItem(OPEN_KEY) === '1';
  } catch {
    return false;
  }
}

/** The toolbar icon's dot: red for a failed article or a stopped sync, blue while articles are being written. */
function notification(state: PanelState): { state: true; level: 'error' | 'warning' | 'info' } | { state: false } {
  const counts = countQueue(state.collections);
  if (counts.byState.failed + counts.byState.unknown > 0 || state.collections.some((c) => c.problem !== null)) return { state: true, level: 'error' };
  if (counts.byState.processing + counts.byState.queued > 0) return { state: true, level: 'info' };
  return { state: false };
}

export default defineToolbarApp({
  init(canvas, app, server) {
    const panel = new ArticlesPanel(canvas);
    server.on<PanelState>(STATE_EVENT, (state) => {
      panel.render(state);
      app.toggleNotification(notification(state));
    });
    app.onToggled(({ state }) => {
      if (state) server.send(REFRESH_EVENT, {});
    });
    app.onToolbarPlacementUpdated(({ placement }) => panel.place(placement));
    // Like the toolbar's own apps: a click on the page closes the panel.
    const onPageClick = (event: MouseEvent): void => {
      const target = event.target;
      if (target instanceof Element && target.closest('astro-dev-toolbar') !== null) return;
      app.toggleState({ state: false });
    };
    app.onToggled(({ state }) => {
      if (state) document.addEventListener('click', onPageClick, true);
      else document.removeEventListener('click', onPageClick, true);
    });
    // Astro reloads the page whenever the content store changes, which the loader does as articles
    // progress: an open panel reopens after the reload instead of vanishing under the user.
    app.onToggled(({ state }) => rememberOpen(state));
    if (wasOpen()) setTimeout(() => app.toggleState({ state: true }), 0);
    // No request for the first state here: the server sends it when the toolbar reports this app initialised.
  },
});
