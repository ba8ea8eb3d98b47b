/// <reference lib="dom" />
// One article's buttons in the toolbar panel (Approve, Regenerate with its estimate and a confirm, Edit), sent to the dev server's endpoint. Browser-only.
import { PANEL_ENDPOINT, TOKEN_HEADER, type PanelAction } from './panel-state.js';

/** What the endpoint answers (see panel-actions.ts); a refusal has `ok: false` and a message to show as it is. */
type Answer = { ok: false; code: string; message: string } | ({ ok: true; action: string } & Record<string, unknown>);

export type RowAction = PanelAction;

/** The article a row acts on, and the token of the dev server that sent the state. */
export interface ActionTarget {
  collection: string;
  slug: string;
  token: string;
}

const numbers = new Intl.NumberFormat();

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(label: string, action: string, style: string, onClick: () => void): HTMLElement {
  const node = element('astro-dev-toolbar-button', { 'button-style': style, size: 'small', 'data-action': action }, label);
  node.addEventListener('click', (event) => {
    // The panel closes on clicks outside the toolbar; these are inside, but must not bubble into the row's link.
    event.stopPropagation();
    onClick();
  });
  return node;
}

/** Sends one action; a network failure becomes a refusal the row shows. */
async function send(target: ActionTarget, action: RowAction, confirm?: boolean): Promise<Answer> {
  try {
    const response = await fetch(PANEL_ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: target.token },
      body: JSON.stringify({ action, collection: target.collection, slug: target.slug, ...(confirm === undefined ? {} : { confirm }) }),
      credentials: 'same-origin',
    });
    return (await response.json()) as Answer;
  } catch (error) {
    return { ok: false, code: 'unreachable', message: `the dev server did not answer (${error instanceof Error ? error.message : String(error)}); is astro dev still running?` };
  }
}

/** The buttons of one row and the line under them that says what happened. */
export class RowActions {
  readonly root = element('div', { class: 'actions' });
  readonly #buttons = element('div', { class: 'buttons' });
  readonly #result = element('div', { class: 'result', 'aria-live': 'polite' });
  #target: ActionTarget | undefined;
  #offered = '';
  #busy = false;

  constructor() {
    this.root.append(this.#buttons, this.#result);
  }

  /** Shows the buttons for what the article allows now; the result line stays until the next action. */
  update(target: ActionTarget | undefined, offered: readonly RowAction[]): void {
    this.#target = target;
    const key = target === undefined ? '' : offered.join(',');
    if (key === this.#offered) return;
    this.#offered = key;
    const labels: Record<RowAction, [string, string]> = { approve: ['Approve', 'green'], regenerate: ['Regenerate…', 'gray'], edit: ['Edit', 'gray'] };
    this.#buttons.replaceChildren(...(target === undefined ? [] : offered.map((action) => button(labels[action][0], action, labels[action][1], () => void this.#act(action)))));
  }

  #show(kind: 'done' | 'error' | 'ask', ...content: (string | HTMLElement)[]): void {
    this.#result.className = `result ${kind}`;
    this.#result.dataset.result = kind;
    this.#result.replaceChildren(...content);
  }

  async #act(action: RowAction): Promise<void> {
    const target = this.#target;
    if (target === undefined || this.#busy) return;
    this.#busy = true;
    try {
      const answer = await send(target, action, action === 'regenerate' ? false : undefined);
      if (!answer.ok) this.#show('error', answer.message);
      else if (action === 'edit') this.#show('done', 'Wrote ', element('code', {}, String(answer.file)), ': change it by hand; it is served instead while the file exists.');
      else if (action === 'approve') this.#show('done', 'Approved: the next build publishes it.');
      else this.#askToRegenerate(target, answer);
    } finally {
      this.#busy = false;
    }
  }

  /** The estimate, and Confirm / Cancel; a blocked create (frozen, budget) is said and not offered. */
  #askToRegenerate(target: ActionTarget, estimate: Record<string, unknown>): void {
    if (typeof estimate.blocked === 'string') {
      this.#show('error', `Not regenerated: ${estimate.blocked}`);
      return;
    }
    const words = `≈${numbers.format(Number(estimate.estimatedWords))} words`;
    const cost = estimate.offline === true ? `${words}, written free by the embedded emulator` : `${words} to bill`;
    const confirm = button('Confirm', 'confirm', 'purple', () => {
      if (this.#busy) return;
      this.#busy = true;
      void send(target, 'regenerate', true)
        .then((answer) => {
          if (!answer.ok) this.#show('error', answer.message);
          else if (answer.started !== true) this.#show('error', `Not regenerated: ${String(answer.blocked)}`);
          else this.#show('done', 'Regenerating: the current article is served until the new one is finished.');
        })
        .finally(() => (this.#busy = false));
    });
    const cancel = button('Cancel', 'cancel', 'ghost', () => this.#show('done', 'Not regenerated.'));
    this.#show('ask', `Regenerate pays for a new article (${cost}). `, confirm, cancel);
  }
}
