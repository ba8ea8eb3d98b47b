// Counts as messages write them: 12,345 and "1 article" / "2 articles".

/** 12345 → "12,345": figures people compare at a glance. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** 1 → "1 article", 3 → "3 articles"; `pluralForm` for nouns that are not made with an s. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}
