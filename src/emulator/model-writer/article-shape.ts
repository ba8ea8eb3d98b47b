// The shape of an article before the model writes it: how many sections or items, which parts, how many words each.
import type { ArticleRequest } from '../../contract/request-schema.js';
import { listItemCount } from '../../contract/item-count.js';
import { blogPostLength, requestedSections, type BlogPost } from '../placeholder-writer/compose.js';
import type { PlannedSection } from '../placeholder-writer/outline.js';

/** Words of the fixed parts a blog post's sections share its target with. */
const INTRO_WORDS = 140;
const CONCLUSION_WORDS = 90;
const FAQ_WORDS = 170;

/** What the body is made of: sections with headings, numbered list items, or reviewed products. */
export type BodyUnit = 'section' | 'item' | 'product';

export interface ArticleShape {
  unit: BodyUnit;
  /** Sections, items or products the body has. */
  count: number;
  /** Given by the request (`outline`, `extraOutlinePrompt`): the model plans a title only. */
  fixedSections: PlannedSection[] | undefined;
  /** Words of each body part, of the introduction and of the conclusion (0: left out). */
  unitWords: number;
  introWords: number;
  conclusionWords: number;
  keyTakeaways: boolean;
  faq: boolean;
  /** A list article's 1–3 supplemental sections at the end. */
  supplemental: boolean;
}

function blogPostShape(request: BlogPost): ArticleShape {
  const fixed = requestedSections(request);
  const { sections: planned, words: target } = blogPostLength(request);
  const count = fixed?.length ?? planned;
  const introWords = request.disableIntroduction === true ? 0 : INTRO_WORDS;
  const conclusionWords = request.disableConclusion === true ? 0 : CONCLUSION_WORDS;
  const rest = target - introWords - conclusionWords - (request.includeFaq ? FAQ_WORDS : 0);
  return {
    unit: 'section',
    count,
    fixedSections: fixed,
    unitWords: Math.max(80, Math.round(rest / Math.max(1, count) / 10) * 10),
    introWords,
    conclusionWords,
    keyTakeaways: request.includeKeyTakeaways && request.disableIntroduction !== true,
    faq: request.includeFaq,
    supplemental: false,
  };
}

/** Every type but the blog post: fixed part budgets, as the service writes them. */
function otherShape(request: Exclude<ArticleRequest, BlogPost>): ArticleShape {
  const base = { fixedSections: undefined, introWords: 120, conclusionWords: CONCLUSION_WORDS, keyTakeaways: false, faq: request.includeFaq, supplemental: false };
  switch (request.articleType) {
    case 'listicle':
    case 'local_places_roundup':
      return { ...base, unit: 'item', count: listItemCount(request), unitWords: 120, supplemental: request.enableSupplementalInformation };
    case 'retail_product_roundup':
      return { ...base, unit: 'product', count: request.numRetailProducts, unitWords: 150 };
    case 'retail_single_product_review':
      return request.enableCondensedMode === true ? { ...base, unit: 'section', count: 3, unitWords: 110, introWords: 70 } : { ...base, unit: 'section', count: 6, unitWords: 200 };
    case 'video_article':
      return { ...base, unit: 'section', count: request.rewriteAllSourceData === true ? 6 : 4, unitWords: 180 };
    case 'rewrite_blog_post':
      return { ...base, unit: 'section', count: request.rewriteAllSourceData === true ? 7 : 5, unitWords: 220 };
  }
}

/** The shape a request asks for. */
export function articleShape(request: ArticleRequest): ArticleShape {
  return request.articleType === 'blog_post' ? blogPostShape(request) : otherShape(request);
}

/** Words the article is planned to have: reserved from the balance at creation; the words written are billed. */
export function plannedWords(shape: ArticleShape): number {
  return shape.introWords + shape.count * shape.unitWords + shape.conclusionWords + (shape.faq ? FAQ_WORDS : 0) + (shape.keyTakeaways ? 40 : 0) + (shape.supplemental ? 220 : 0);
}

/** Calls to the writer: the outline, then each part (the statusDetail steps of a writing article). */
export function plannedSteps(shape: ArticleShape): number {
  return 1 + (shape.introWords > 0 ? 1 : 0) + (shape.keyTakeaways ? 1 : 0) + shape.count + (shape.supplemental ? 1 : 0) + (shape.faq ? 1 : 0) + (shape.conclusionWords > 0 ? 1 : 0);
}
