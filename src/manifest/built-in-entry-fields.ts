// The names the loader gives an entry's own fields (entry.data.title, …): declared here, where the manifest is read, so a `data:` field that would hide one is refused before anything is paid.

/**
 * Every field the loader writes on an entry's data. The loader's entry schema is typed against this
 * list (`loader/entry-schema.ts`), so neither can gain or lose a name without the other.
 */
export const BUILT_IN_ENTRY_FIELDS = [
  'keyword',
  'title',
  'slug',
  'description',
  'articleType',
  'wordCount',
  'readingTime',
  'headings',
  'images',
  'links',
  'status',
  'statusDetail',
  'progress',
  'error',
  'articleId',
  'createdAt',
  'updatedAt',
  'polished',
  'current',
  'emulator',
  'edited',
  'config',
  'quality',
  'draft',
  'publishDate',
  'image',
  'faq',
  'review',
  'locale',
  'translationKey',
  'translations',
  'dir',
] as const;
export type BuiltInEntryField = (typeof BUILT_IN_ENTRY_FIELDS)[number];

const BUILT_IN = new Set<string>(BUILT_IN_ENTRY_FIELDS);

/** Why a manifest `data:` field may not have this name, or undefined when it may. */
export function dataFieldClash(name: string): string | undefined {
  return BUILT_IN.has(name) ? `clashes with the built-in entry field \`${name}\` (entry.data.${name}); give your field another name` : undefined;
}
