// Sentences and paragraphs from a language pack, in a point of view, carrying hints for Polish.
import type { Random } from '../seeded-random.js';
import type { LanguagePack, PointOfView } from './language-packs.js';
import { capitalise } from './keyword.js';
import { escapeHtml } from '../../lang/escape.js';

/**
 * One sentence as HTML, with the alternative forms Polish may swap in. Keeping the hints next to
 * the text lets Polish be a faithful transformation instead of guesswork over finished HTML.
 */
export interface Sentence {
  html: string;
  /** The same sentence in the active voice (convert-passive-voice). */
  active?: string;
  /** The same content as shorter sentences (simplify-complex-sentences). */
  simple?: string[];
  /** The same sentence said plainly (humanize). */
  plain?: string;
}

export interface ProseVariables {
  topic: string;
  Topic: string;
  [name: string]: string;
}

/** Fill `{name}` placeholders with HTML-escaped values. */
export function fill(template: string, variables: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = variables[name];
    return value === undefined ? whole : escapeHtml(value);
  });
}

export interface ProseOptions {
  pack: LanguagePack;
  pointOfView: PointOfView;
  simpleLanguage: boolean;
  random: Random;
  variables: ProseVariables;
  /** Wikipedia-style reference links sprinkled into the text. */
  externalLinkHref?: string;
}

/** Writes sentences without repeating itself, except where it repeats on purpose. */
export class Prose {
  readonly #options: ProseOptions;
  readonly #used = new Set<string>();
  #firstSentence: Sentence | undefined;
  #linksPlaced = 0;

  constructor(options: ProseOptions) {
    this.#options = options;
  }

  /** A fresh sentence; extra variables (e.g. {item}) apply to this sentence only. */
  sentence(extra: Record<string, string> = {}): Sentence {
    const { random } = this.#options;
    for (let attempt = 0; attempt < 12; attempt++) {
      const candidate = this.#draw(extra);
      if (!this.#used.has(candidate.html) || attempt === 11) {
        this.#used.add(candidate.html);
        this.#firstSentence ??= candidate;
        return candidate;
      }
    }
    return { html: fill(random.pick(this.#options.pack.clauses), this.#options.variables) };
  }

  /** A sentence from a specific bank (e.g. item sentences), falling back to prose when exhausted. */
  from(bank: readonly string[], extra: Record<string, string> = {}): Sentence {
    const { random, variables } = this.#options;
    for (let attempt = 0; attempt < 6; attempt++) {
      const html = capitaliseHtml(fill(random.pick(bank), { ...variables, ...extra }));
      if (!this.#used.has(html)) {
        this.#used.add(html);
        return { html };
      }
    }
    return this.sentence(extra);
  }

  /** The first sentence written so far, again: deliberate repetition for Polish to remove. */
  echo(): Sentence | undefined {
    return this.#firstSentence === undefined ? undefined : { ...this.#firstSentence };
  }

  /** A sentence that states the writer's point of view. */
  voice(): Sentence {
    const { pack, pointOfView, random, variables } = this.#options;
    const html = capitaliseHtml(fill(random.pick(pack.povSentences[pointOfView]), variables));
    this.#used.add(html);
    this.#firstSentence ??= { html };
    return { html };
  }

  /** `count` sentences, the first often in the writer's voice. */
  sentences(count: number, extra: Record<string, string> = {}): Sentence[] {
    const list: Sentence[] = [];
    for (let i = 0; i < count; i++) {
      list.push(i === 0 && this.#options.random.chance(0.2) ? this.voice() : this.sentence(extra));
    }
    return list;
  }

  #draw(extra: Record<string, string>): Sentence {
    const { pack, random, simpleLanguage, variables } = this.#options;
    const vars = { ...variables, ...extra };
    const end = pack.sentenceEnd;
    if (simpleLanguage) {
      return { html: capitaliseHtml(fill(random.pick(pack.simpleClauses), vars)) + end };
    }
    const roll = random.next();
    if (roll < 0.12) {
      const unused = pack.povSentences[this.#options.pointOfView].map((t) => capitaliseHtml(fill(t, vars))).filter((t) => !this.#used.has(t));
      if (unused.length > 0) return { html: random.pick(unused) };
    }
    if (roll < 0.2) {
      const [passive, active] = random.pick(pack.passive);
      return { html: capitaliseHtml(fill(passive, vars)), active: capitaliseHtml(fill(active, vars)) };
    }
    if (roll < 0.28) {
      const [first, second] = random.pick(pack.complex);
      const a = fill(first, vars);
      const b = fill(second, vars);
      return { html: capitaliseHtml(a) + pack.complexJoiner + b + end, simple: [capitaliseHtml(a) + end, capitaliseHtml(b) + end] };
    }
    if (roll < 0.34) {
      const [formal, plain] = random.pick(pack.formal);
      return { html: capitaliseHtml(fill(formal, vars)), plain: capitaliseHtml(fill(plain, vars)) };
    }
    const opener = random.pick(pack.openers);
    const clause = this.#linkTopic(fill(random.pick(pack.clauses), vars));
    const tail = random.pick(pack.tails);
    const body = opener === '' ? capitaliseHtml(clause) : opener + clause;
    return { html: body + escapeHtml(tail) + end };
  }

  /** Now and then the topic becomes a link to a reference page, as real articles do. */
  #linkTopic(html: string): string {
    const { externalLinkHref, random, variables } = this.#options;
    if (externalLinkHref === undefined || this.#linksPlaced >= 4 || !random.chance(0.08)) return html;
    const topic = escapeHtml(variables.topic);
    const at = html.indexOf(topic);
    if (at < 0) return html;
    this.#linksPlaced++;
    const attrs = random.chance(0.5) ? ' target="_blank" rel="noopener"' : '';
    return `${html.slice(0, at)}<a href="${escapeHtml(externalLinkHref)}"${attrs}>${topic}</a>${html.slice(at + topic.length)}`;
  }
}

/** Capitalise the first visible letter of an HTML fragment (skipping a leading tag). */
function capitaliseHtml(html: string): string {
  const match = /^(\s*(?:<[^>]+>)*\s*)(.)/su.exec(html);
  if (match === null) return html;
  const prefix = match[1] ?? '';
  return prefix + capitalise(html.slice(prefix.length));
}
