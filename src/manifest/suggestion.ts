// Did-you-mean for misspelled names: exact-but-for-case, aliases people reach for, then the closest by edit distance.
import { closest, distance } from 'fastest-levenshtein';

/** Names people write for a request parameter, mapped to the parameter (lower case). */
const PARAMETER_ALIASES: ReadonlyMap<string, string> = new Map(Object.entries({
  type: 'articleType',
  articletypes: 'articleType',
  kind: 'articleType',
  model: 'gptVersion',
  gpt: 'gptVersion',
  lang: 'language',
  locale: 'language',
  tone: 'toneOfVoiceProfile',
  toneofvoice: 'toneOfVoiceProfile',
  voice: 'toneOfVoiceProfile',
  pov: 'pointOfView',
  perspective: 'pointOfView',
  faq: 'includeFaq',
  length: 'articleLength',
  images: 'maxImages',
  sections: 'numberOfSections',
  items: 'numberOfItems',
  products: 'numRetailProducts',
  polish: 'autoPolish',
  keytakeaways: 'includeKeyTakeaways',
  webhook: 'webhookUrl',
  integration: 'integrationId',
  store: 'retailDomain',
  affiliate: 'affiliateId',
  video: 'videoUrl',
  sources: 'urls',
  references: 'urls',
  id: 'slug',
  path: 'slug',
  kw: 'keyword',
  keywords: 'keyword',
  term: 'keyword',
  query: 'keyword',
}));

// Case, `_`, `-`, `.` and spaces ignored: "Article Type", "article_type" and "ARTICLETYPE" all match.
function loose(name: string): string {
  return name.toLowerCase().replace(/[\s_.-]+/g, '');
}

/**
 * The name among `candidates` that `name` most likely means, or undefined when none is close.
 * Aliases only count when their target is among the candidates.
 */
export function suggestName(name: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const key = loose(name);
  if (key === '') return undefined;
  const sameButCase = candidates.find((candidate) => loose(candidate) === key);
  if (sameButCase) return sameButCase;
  const alias = PARAMETER_ALIASES.get(key);
  if (alias && candidates.includes(alias)) return alias;
  const looseCandidates = candidates.map(loose);
  // Two neighbouring letters swapped ("plna", "lisitcle") is one slip, though two edits apart.
  const swapped = looseCandidates.findIndex((candidate) => isOneSwap(key, candidate));
  if (swapped !== -1) return candidates[swapped];
  const best = closest(key, looseCandidates);
  // Roughly one typo per four letters: "numRetailProdcuts" → numRetailProducts, but "name" is not "tone".
  const allowed = key.length <= 4 ? 1 : Math.max(2, Math.floor(key.length / 4));
  if (distance(key, best) > allowed) return undefined;
  return candidates[looseCandidates.indexOf(best)];
}

/** Whether `a` is `b` with two neighbouring characters swapped. */
function isOneSwap(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  const first = [...a].findIndex((char, index) => char !== b[index]);
  return a[first] === b[first + 1] && a[first + 1] === b[first] && a.slice(first + 2) === b.slice(first + 2);
}

/** `; did you mean "x"?` for a suggestion, else `otherwise` — to append to a message. */
export function didYouMean(suggestion: string | undefined, otherwise = ''): string {
  return suggestion === undefined || suggestion === '' ? otherwise : `; did you mean "${suggestion}"?`;
}
