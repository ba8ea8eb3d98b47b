// Turning `outline` and `extraOutlinePrompt` into the H2/H3 sections the writer writes.
import type { OutlineSection } from '../../contract/request-schema.js';

export interface PlannedSection {
  title: string;
  subsections: string[];
}

/**
 * `outline` (shape not shown by the spec): a name, or `{ title, subsections }` whose
 * subsections are names or sections; only one level of subsections is written (H3).
 */
export function sectionsFromOutline(outline: readonly OutlineSection[]): PlannedSection[] {
  return outline.map((section) =>
    typeof section === 'string'
      ? { title: section.trim(), subsections: [] }
      : { title: section.title.trim(), subsections: (section.subsections ?? []).map((sub) => (typeof sub === 'string' ? sub : sub.title).trim()) },
  );
}

const LIST_MARKER = /^(?:[-*+•]|\d{1,2}[.)])\s+/;

/**
 * `extraOutlinePrompt` (spec): one H2 section name per line, H3 sub-sections by indentation (one
 * level only). Blank lines are ignored and list markers stripped; an indented first line is an H2.
 */
export function sectionsFromOutlinePrompt(prompt: string): PlannedSection[] {
  const sections: PlannedSection[] = [];
  for (const line of prompt.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const indented = /^[ \t]/.test(line);
    const name = line.trim().replace(LIST_MARKER, '').trim();
    if (name === '') continue;
    const current = sections.at(-1);
    if (indented && current !== undefined) current.subsections.push(name);
    else sections.push({ title: name, subsections: [] });
  }
  return sections;
}
