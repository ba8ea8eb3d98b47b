// The parts an article is written in after its outline, in order: each a statusDetail step, a prompt, and how its answer becomes HTML.
import type { ArticleRequest } from '../../contract/request-schema.js';
import { escapeHtml } from '../../lang/escape.js';
import { DEFAULT_RETAIL_DOMAIN, youtubeIdOf } from '../placeholder-writer/index.js';
import { ENGLISH, languagePack } from '../placeholder-writer/language-packs.js';
import type { ArticleShape } from './article-shape.js';
import type { PartShapeOptions } from './markdown-html.js';
import { bodyPrompt, conclusionPrompt, faqPrompt, introductionPrompt, keyTakeawaysPrompt, supplementalPrompt, type PartPrompt } from './prompts.js';

/** One call to the writer and where its answer goes. */
export interface ArticlePart {
  /** statusDetail while it is written: "Writing section 3 of 7: Brewing Time". */
  step: string;
  /** For messages: "writing section 3 of 7". */
  doing: string;
  prompt: string;
  maxTokens: number;
  /** HTML before the part's own (its heading), and after (a product link). */
  before: string;
  after: string;
  markdown: PartShapeOptions;
}

const UNDER_H2: PartShapeOptions = { minDepth: 3, dropLeadingHeadings: 6, boldQuestionsAsHeadings: false };

/** Room for the answer: about 1.5 tokens a word in English, more in other scripts, and slack for models that run long. */
function tokensFor(words: number): number {
  return Math.ceil(words * 4) + 400;
}

const h2 = (text: string): string => `<h2>${escapeHtml(text)}</h2>`;

/** A search on the store for a product the model named (the writer knows no real product ids), with the affiliate tag. */
function productSearchLink(request: Extract<ArticleRequest, { articleType: 'retail_product_roundup' }>, name: string, label: string): string {
  const host = (request.retailDomain ?? DEFAULT_RETAIL_DOMAIN).replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  const url = new URL(`https://${host.startsWith('www.') ? host : `www.${host}`}/s`);
  url.searchParams.set('k', name);
  if (request.affiliateId !== undefined) url.searchParams.set('tag', request.affiliateId);
  return `<p><a href="${escapeHtml(url.href)}" rel="nofollow sponsored noopener">${escapeHtml(label)}</a></p>`;
}

function bodyParts(request: ArticleRequest, shape: ArticleShape, outline: PartPrompt): ArticlePart[] {
  const pack = languagePack(request.language) ?? ENGLISH;
  const total = outline.sections.length;
  return outline.sections.map((section, index) => {
    const numbered = shape.unit === 'section' ? section.title : `${index + 1}. ${section.title}`;
    const verb = shape.unit === 'product' ? 'Reviewing product' : shape.unit === 'item' ? 'Writing item' : 'Writing section';
    const after = shape.unit === 'product' && request.articleType === 'retail_product_roundup' ? productSearchLink(request, section.title, pack.labels.checkPrice) : '';
    return {
      step: `${verb} ${index + 1} of ${total}: ${section.title}`,
      doing: `${verb.toLowerCase()} ${index + 1} of ${total}`,
      prompt: bodyPrompt(request, shape, outline, index),
      maxTokens: tokensFor(shape.unitWords),
      before: h2(numbered),
      after,
      markdown: UNDER_H2,
    };
  });
}

/** A video article shows its video after the introduction (YouTube only; other hosts are linked in the prompt). */
function videoEmbed(request: ArticleRequest, title: string): string {
  if (request.articleType !== 'video_article' || request.videoUrl === undefined) return '';
  const id = youtubeIdOf(request.videoUrl);
  return id === undefined ? '' : `<iframe width="560" height="315" src="https://www.youtube.com/embed/${encodeURIComponent(id)}" title="${escapeHtml(title)}" allowfullscreen></iframe>`;
}

/** Every part after the outline, in article order. */
export function articleParts(request: ArticleRequest, shape: ArticleShape, outline: PartPrompt): ArticlePart[] {
  const pack = languagePack(request.language) ?? ENGLISH;
  const parts: ArticlePart[] = [];
  if (shape.introWords > 0) {
    const intro = { step: 'Writing the introduction', doing: 'writing the introduction', prompt: introductionPrompt(request, shape, outline), maxTokens: tokensFor(shape.introWords), before: '', markdown: { ...UNDER_H2 } };
    parts.push({ ...intro, after: videoEmbed(request, outline.title) });
  }
  if (shape.keyTakeaways) {
    parts.push({ step: 'Writing the key takeaways', doing: 'writing the key takeaways', prompt: keyTakeawaysPrompt(outline), maxTokens: 400, before: h2(pack.headings.keyTakeaways), after: '', markdown: UNDER_H2 });
  }
  parts.push(...bodyParts(request, shape, outline));
  if (shape.supplemental) {
    const markdown: PartShapeOptions = { minDepth: 2, dropLeadingHeadings: 0, boldQuestionsAsHeadings: false };
    parts.push({ step: 'Writing supplemental sections', doing: 'writing the supplemental sections', prompt: supplementalPrompt(outline), maxTokens: tokensFor(220), before: '', after: '', markdown });
  }
  if (shape.faq) {
    // Only a repeated FAQ heading goes: the questions are headings too.
    const markdown: PartShapeOptions = { minDepth: 3, dropLeadingHeadings: 2, boldQuestionsAsHeadings: true };
    parts.push({ step: 'Writing frequently asked questions', doing: 'writing the FAQ', prompt: faqPrompt(request, outline), maxTokens: tokensFor(200), before: h2(pack.headings.faq), after: '', markdown });
  }
  if (shape.conclusionWords > 0) {
    parts.push({ step: 'Writing the conclusion', doing: 'writing the conclusion', prompt: conclusionPrompt(shape, outline), maxTokens: tokensFor(shape.conclusionWords), before: h2(pack.headings.conclusion), after: '', markdown: UNDER_H2 });
  }
  return parts;
}

/** A blog post's sources: the reference URLs it was given (the writer cites nothing it did not read). */
export function sourcesHtml(request: ArticleRequest): string {
  if (request.articleType !== 'blog_post' || !request.shouldCiteSources || request.urls === undefined || request.urls.length === 0) return '';
  const pack = languagePack(request.language) ?? ENGLISH;
  const items = request.urls.map((url) => `<li><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></li>`).join('\n');
  return `${h2(pack.headings.sources)}\n<ul>\n${items}\n</ul>`;
}
