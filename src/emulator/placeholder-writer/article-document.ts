// The writer's model of an article: blocks that render to (messy) HTML and that Polish rewrites.
import type { Sentence } from './prose.js';

/** An image the article shows; `billable` ones are generated (and billed), others are product photos. */
export interface ArticleImage {
  /** Stable id, also the file name the emulator serves it under. */
  id: string;
  width: number;
  height: number;
  /** null: the writer left the alt attribute out on purpose. */
  alt: string | null;
  caption: string | null;
  /** The writer leaves width/height out of some images on purpose. */
  omitSize: boolean;
  billable: boolean;
}

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; text: string }
  | { kind: 'paragraph'; sentences: Sentence[]; midConclusion?: boolean }
  /** `<p>&nbsp;</p>` and friends: editors leave them behind; Polish removes them. */
  | { kind: 'empty' }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'table'; head: string[]; rows: string[][] }
  | { kind: 'quote'; html: string; cite: string | null }
  | { kind: 'image'; image: ArticleImage }
  | { kind: 'video'; embedUrl: string; title: string }
  /** Pre-rendered HTML such as a product card. */
  | { kind: 'raw'; html: string }
  /** An HTML comment: notes from the writer, never visible text. */
  | { kind: 'comment'; text: string };

export interface ArticleDocument {
  title: string;
  htmlLang: string;
  blocks: Block[];
  /** Some answers are a full HTML document, most a fragment. */
  fullDocument: boolean;
  description: string;
}
