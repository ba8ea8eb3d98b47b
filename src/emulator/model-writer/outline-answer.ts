// Reading the model's outline answer: a "Title:" line and numbered headings, as the outline prompt asks; models stray, so leniently.
import type { PlannedSection } from '../placeholder-writer/outline.js';

export interface OutlineAnswer {
  title: string | undefined;
  sections: PlannedSection[];
}

const TITLE_LINE = /^\s*(?:#+\s*)?\**\s*title\s*\**\s*[:：-]\s*(.+)$/i;
const LIST_LINE = /^(\s*)(?:\d{1,3}[.)]|[-*+•])\s+(.+)$/;
const HEADING_LINE = /^\s*#{1,3}\s+(.+)$/;

/** Markdown emphasis, quotes and a trailing colon around a heading the model wrote. */
function clean(text: string): string {
  return text
    .replace(/\*\*|__|`/g, '')
    .replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
    .replace(/[:：]\s*$/, '')
    .trim();
}

/**
 * The title and sections of an outline answer: numbered or bulleted lines are sections, indented
 * ones their sub-sections; without any list, `#` headings are the sections. At most `count`.
 */
export function parseOutlineAnswer(text: string, count: number): OutlineAnswer {
  let title: string | undefined;
  const sections: PlannedSection[] = [];
  const headings: PlannedSection[] = [];
  for (const line of text.split(/\r?\n/)) {
    const titleMatch = TITLE_LINE.exec(line);
    if (titleMatch !== null) {
      title ??= clean(titleMatch[1] as string) || undefined;
      continue;
    }
    const item = LIST_LINE.exec(line);
    if (item !== null) {
      const name = clean(item[2] as string);
      if (name === '') continue;
      const current = sections.at(-1);
      if ((item[1] as string).length > 0 && current !== undefined) current.subsections.push(name);
      else sections.push({ title: name, subsections: [] });
      continue;
    }
    const heading = HEADING_LINE.exec(line);
    if (heading !== null && clean(heading[1] as string) !== '') headings.push({ title: clean(heading[1] as string), subsections: [] });
  }
  const found = sections.length > 0 ? sections : headings;
  return { title, sections: found.slice(0, count) };
}
