// The prompts the model writer sends: every request parameter that shapes the text says so here, once.
import type { ArticleRequest } from '../../contract/request-schema.js';
import type { PlannedSection } from '../placeholder-writer/outline.js';
import type { ArticleShape } from './article-shape.js';
import type { ChatMessage } from './chat-completions.js';

const POINT_OF_VIEW: Record<ArticleRequest['pointOfView'], string> = {
  third_person: 'Write in the third person (no "I" or "we").',
  first_person_singular: 'Write in the first person singular ("I").',
  first_person_plural: 'Write in the first person plural ("we").',
  second_person: 'Address the reader directly in the second person ("you").',
};

const ARTICLE_KIND: Record<ArticleRequest['articleType'], string> = {
  blog_post: 'a blog post',
  listicle: 'a list article',
  local_places_roundup: 'a roundup of local places',
  retail_product_roundup: 'a roundup of products to buy',
  retail_single_product_review: 'a review of a single product',
  video_article: 'an article based on a video',
  rewrite_blog_post: 'a rewrite of an existing article',
};

const UNIT_NAME = { section: 'section headings', item: 'item names (each the name of one entry of the list)', product: 'product names (each one specific product, brand and model)' } as const;

function tone(request: ArticleRequest): string {
  return request.toneOfVoiceProfile === 'seo_optimized'
    ? `Tone: clear, helpful and search-friendly; use the keyword "${request.targetKeyword}" naturally, never stuffed.`
    : `Tone of voice: ${request.toneOfVoiceProfile}.`;
}

/** What a blog post asks beyond the common parameters: country, entities, reference URLs. */
function blogContext(request: ArticleRequest): string[] {
  if (request.articleType !== 'blog_post') return [];
  const lines: string[] = [];
  if (request.country !== undefined) lines.push(`Readers are in ${request.country}.`);
  if (request.seoOptimizationLevel === 'manual' && request.extraEntitiesPrompt !== undefined && request.extraEntitiesPrompt.trim() !== '') {
    lines.push(`Mention these entities where they fit: ${request.extraEntitiesPrompt.trim()}.`);
  }
  if (request.urls !== undefined && request.urls.length > 0) lines.push(`Reference material (do not invent what it says): ${request.urls.join(', ')}.`);
  return lines;
}

/** What the other types are about: the product, the video, the article rewritten, the first-hand voice. */
function typeContext(request: ArticleRequest): string[] {
  switch (request.articleType) {
    case 'retail_product_roundup':
      return [request.enableFirstHandExperience ? 'Describe each product as someone who has used it.' : 'Describe each product factually, without claiming to have used it.'];
    case 'retail_single_product_review':
      return request.productId === undefined ? [] : [`The product's identification number is ${request.productId}.`];
    case 'video_article':
      return request.videoUrl === undefined ? [] : [`The article accompanies the video ${request.videoUrl}; you cannot watch it, so write about its topic.`];
    case 'rewrite_blog_post':
      return request.articleUrl === undefined ? [] : [`It rewrites the article at ${request.articleUrl}; you cannot read it, so write a fresh article on its topic.`];
    default:
      return [];
  }
}

/** The system message every call shares: language, point of view, tone, readability, Markdown only. */
export function systemMessage(request: ArticleRequest): ChatMessage {
  const readability =
    request.readabilityMode === '8th_grade' ? 'Readability: 8th grade. Short sentences, simple everyday words.' : 'Readability: for adult general readers.';
  const content = [
    `You are an expert writer of web articles. You are writing ${ARTICLE_KIND[request.articleType]} about "${request.targetKeyword}".`,
    `Write in ${request.language}.`,
    POINT_OF_VIEW[request.pointOfView],
    tone(request),
    readability,
    ...blogContext(request),
    ...typeContext(request),
    'Answer in Markdown only: paragraphs, lists and **bold**; no HTML, no images, no code fences, no notes about the task.',
  ].join('\n');
  return { role: 'system', content };
}

/** The outline call: a title line, then `count` numbered headings; with the sections given, a title only. */
export function outlinePrompt(request: ArticleRequest, shape: ArticleShape): string {
  const titleRule = request.extraTitlePrompt === undefined || request.extraTitlePrompt.trim() === '' ? '' : `\nFor the title: ${request.extraTitlePrompt.trim()}`;
  if (shape.fixedSections !== undefined) {
    const given = shape.fixedSections.map((s, i) => `${i + 1}. ${s.title}`).join('\n');
    return `The article's sections are already decided:\n${given}\n\nReply with exactly one line and nothing else:\nTitle: <the article's title>${titleRule}`;
  }
  const extra = request.articleType === 'blog_post' && request.extraOutlinePrompt !== undefined && request.extraOutlinePrompt.trim() !== '' ? `\n${request.extraOutlinePrompt.trim()}` : '';
  return [
    `Plan the article for the keyword "${request.targetKeyword}".`,
    `Reply in exactly this form and nothing else: one title line, then exactly ${shape.count} numbered ${UNIT_NAME[shape.unit]}.`,
    'Title: <the article\'s title>',
    '1. <first>',
    '2. <second>',
    `…up to ${shape.count}.${titleRule}${extra}`,
  ].join('\n');
}

/** The outline as context for each later call. */
function outlineContext(title: string, sections: PlannedSection[]): string {
  return `Article title: ${title}\nOutline:\n${sections.map((s, i) => `${i + 1}. ${s.title}`).join('\n')}`;
}

export interface PartPrompt {
  title: string;
  sections: PlannedSection[];
}

/** A body part: section `index` (0-based), an item of the list, or a product. */
export function bodyPrompt(request: ArticleRequest, shape: ArticleShape, part: PartPrompt, index: number): string {
  const section = part.sections[index] as PlannedSection;
  const what = shape.unit === 'item' ? 'the list entry' : shape.unit === 'product' ? 'the review of the product' : 'the section';
  const lines = [outlineContext(part.title, part.sections), '', `Write ${what} "${section.title}" (${index + 1} of ${part.sections.length}) in about ${shape.unitWords} words.`];
  if (section.subsections.length > 0) lines.push(`Cover these sub-topics, each under its own "### " heading: ${section.subsections.join('; ')}.`);
  if (shape.unit === 'product') lines.push('End with a "**Pros**" list and a "**Cons**" list.');
  lines.push('Do not repeat the heading; do not write an introduction or a conclusion for the whole article.');
  if (request.extraSectionPrompt !== undefined && request.extraSectionPrompt.trim() !== '') lines.push(request.extraSectionPrompt.trim());
  return lines.join('\n');
}

export function introductionPrompt(request: ArticleRequest, shape: ArticleShape, part: PartPrompt): string {
  const extra = request.extraIntroductionPrompt === undefined || request.extraIntroductionPrompt.trim() === '' ? [] : [request.extraIntroductionPrompt.trim()];
  return [outlineContext(part.title, part.sections), '', `Write the introduction of the article in about ${shape.introWords} words. No heading.`, ...extra].join('\n');
}

export function keyTakeawaysPrompt(part: PartPrompt): string {
  return [outlineContext(part.title, part.sections), '', 'Write the key takeaways of the article: a Markdown bullet list of 3 to 5 short points, and nothing else.'].join('\n');
}

export function supplementalPrompt(part: PartPrompt): string {
  return [outlineContext(part.title, part.sections), '', 'Write 1 to 3 short supplemental sections that help a reader choose or use the list above, about 70 words each. Start each with a "## " heading.'].join('\n');
}

export function faqPrompt(request: ArticleRequest, part: PartPrompt): string {
  return [
    outlineContext(part.title, part.sections),
    '',
    `Write 3 to 5 frequently asked questions about "${request.targetKeyword}" with their answers.`,
    'Each question on its own "### " heading line ending with "?", followed by an answer of 1 to 3 sentences. Nothing else.',
  ].join('\n');
}

export function conclusionPrompt(shape: ArticleShape, part: PartPrompt): string {
  return [outlineContext(part.title, part.sections), '', `Write the conclusion of the article in about ${shape.conclusionWords} words. No heading.`].join('\n');
}
