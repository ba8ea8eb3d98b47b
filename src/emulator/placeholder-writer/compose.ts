// Composing an article document for a request: structure per article type, honouring every parameter.
import type { ArticleRequest, ArticleType } from '../../contract/request-schema.js';
import { generatesImages } from '../../contract/billed-images.js';
import { listItemCount, type ListRequest } from '../../contract/item-count.js';
import { imageSizeToPixels } from '../../contract/image-size.js';
import { countHtmlWords } from '../../contract/word-count.js';
import { createRandom, type Random } from '../seeded-random.js';
import type { ArticleDocument, ArticleImage, Block } from './article-document.js';
import { ENGLISH, languagePack, type LanguagePack } from './language-packs.js';
import { escapeHtml } from '../../lang/escape.js';
import { capitalise, cityOfKeyword, mentionsKeyword, singular, titleCase, topicOfKeyword } from './keyword.js';
import { fill, Prose, type ProseVariables, type Sentence } from './prose.js';
import { sectionsFromOutline, sectionsFromOutlinePrompt, type PlannedSection } from './outline.js';

/** Words and sections per `articleLength` (spec: short ~800 … longer ~3000 words of text). */
export const ARTICLE_LENGTH_TARGETS = {
  shorter: { words: 550, sections: 3 },
  short: { words: 800, sections: 4 },
  medium: { words: 1300, sections: 5 },
  default: { words: 1600, sections: 6 },
  long: { words: 2300, sections: 8 },
  longer: { words: 3000, sections: 10 },
} as const;
/** `articleLength: 'custom'` without `numberOfSections`. */
export const DEFAULT_CUSTOM_SECTIONS = 6;
const WORDS_PER_CUSTOM_SECTION = 260;

/** Image and video counts when `maxImages` / `maxVideos` are not given. */
export const DEFAULT_MEDIA_COUNTS = {
  images: { images: 4, videos: 0 },
  videos: { images: 0, videos: 2 },
  auto: { images: 3, videos: 1 },
  none: { images: 0, videos: 0 },
} as const;

/** The store linked to when `retailDomain` is not given ("the default store domain of the service"). */
export const DEFAULT_RETAIL_DOMAIN = 'amazon.com';

export interface ComposedArticle {
  doc: ArticleDocument;
  /** statusDetail texts, in the order the emulator walks through them. */
  steps: string[];
  images: ArticleImage[];
  /** The language the text is written in (English when the requested one has no templates). */
  writtenLanguage: string;
}

const PLACE_NAMES = [
  'Granite Ridge', 'Cedar Hollow', 'Silver Lake', 'Maple Crest', 'Blue Heron', 'Falcon Peak', 'Willow Creek',
  'Red Rock', 'Pine Valley', 'Juniper Point', 'Aspen Glen', 'Harbor View', 'Stone Bridge', 'Copper Canyon',
  'Misty Meadow', 'Oak Haven', 'Eagle Bluff', 'Fern Gully', 'Lantern Bay', 'Moss Hill', 'Quarry Lane',
  'Sunset Mesa', 'Tamarack', 'Birch Run', 'Crystal Falls',
];
const NAME_QUALIFIERS = ['North', 'South', 'East', 'West', 'Upper', 'Lower', 'Old', 'New'];
const BRANDS = ['Nordvik', 'Altura', 'Kestrel', 'Lumio', 'Vantage', 'Brio', 'Corvex', 'Tandem', 'Solace', 'Ardent', 'Helix', 'Quill', 'Marlow', 'Zephyr', 'Orbit', 'Pinnacle'];
const MODELS = ['One', 'Pro', 'Air', 'Max', 'S2', 'X200', 'Lite', 'Plus'];
const STREETS = ['Main Street', 'Market Square', 'Harbour Road', 'Station Road', 'Church Lane', 'High Street', 'Park Avenue'];
const SOURCE_SITES = [
  (t: string) => `https://en.wikipedia.org/wiki/${encodeURIComponent(t.replace(/ /g, '_'))}`,
  (t: string) => `https://www.example.org/guides/${slugPath(t)}`,
  (t: string) => `https://research.example.edu/papers/${slugPath(t)}-overview`,
  (t: string) => `https://news.example.com/${slugPath(t)}/latest`,
  (t: string) => `https://www.example.net/blog/${slugPath(t)}-tips`,
];
const YOUTUBE_ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

function slugPath(text: string): string {
  return encodeURIComponent(text.toLowerCase().replace(/\s+/g, '-'));
}

/** Everything the per-type composers share. */
class Composition {
  readonly blocks: Block[] = [];
  readonly steps: string[] = [];
  readonly images: ArticleImage[] = [];
  readonly random: Random;
  readonly prose: Prose;
  readonly vars: ProseVariables;
  #imageCounter = 0;
  /** The sentence that says the keyword, for the first paragraph, when the title does not. */
  #keywordSentence: Sentence | undefined;

  constructor(
    readonly request: ArticleRequest,
    readonly seed: string,
    readonly pack: LanguagePack,
  ) {
    this.random = createRandom(`${seed}:compose`);
    const topic = topicOfKeyword(request.targetKeyword);
    const Topic = pack.titleCase ? titleCase(topic) : capitalise(topic);
    const city = cityOfKeyword(request.targetKeyword) ?? (pack === ENGLISH ? 'town' : '…');
    this.vars = { topic, Topic, city };
    this.prose = new Prose({
      pack,
      pointOfView: request.pointOfView,
      simpleLanguage: request.readabilityMode === '8th_grade',
      random: this.random.fork('prose'),
      variables: this.vars,
      externalLinkHref: `https://${pack.htmlLang}.wikipedia.org/wiki/${encodeURIComponent(capitalise(topic).replace(/ /g, '_'))}`,
    });
  }

  heading(level: 1 | 2 | 3 | 4 | 5 | 6, text: string): void {
    this.blocks.push({ kind: 'heading', level, text });
  }

  paragraph(sentences: Sentence[], midConclusion = false): void {
    if (sentences.length === 0) return;
    const opening = this.#keywordSentence;
    this.#keywordSentence = undefined;
    this.blocks.push({ kind: 'paragraph', sentences: opening === undefined ? sentences : [opening, ...sentences], ...(midConclusion ? { midConclusion } : {}) });
  }

  /** Paragraphs of 3–6 sentences until about `words` words are written. */
  writeParagraphs(words: number, extra: Record<string, string> = {}): void {
    let written = 0;
    // Leave about one sentence of slack so the article lands near its target length.
    while (written < words - 10) {
      const remaining = words - written;
      const count = remaining < 80 ? Math.max(1, Math.min(6, Math.round(remaining / 15))) : this.random.int(3, 6);
      const sentences = this.prose.sentences(count, extra);
      written += sentences.reduce((sum, s) => sum + countHtmlWords(s.html), 0);
      this.paragraph(sentences);
      if (this.random.chance(0.04)) this.blocks.push({ kind: 'empty' });
    }
  }

  image(width: number, height: number, billable: boolean, altText: string): ArticleImage {
    const index = this.#imageCounter++;
    const image: ArticleImage = {
      id: `${this.seed.slice(0, 16)}-${billable ? '' : 'p'}${index}-${width}x${height}`,
      width,
      height,
      // Real generated articles often ship images without alt text.
      alt: this.random.chance(0.3) ? null : altText,
      caption: this.random.chance(0.3) ? altText : null,
      omitSize: this.random.chance(0.25),
      billable,
    };
    this.images.push(image);
    return image;
  }

  youtubeId(): string {
    let id = '';
    for (let i = 0; i < 11; i++) id += this.random.pick([...YOUTUBE_ID_CHARS]);
    return id;
  }

  itemName(index: number, kind: string): string {
    const base = PLACE_NAMES[index % PLACE_NAMES.length] as string;
    const round = Math.floor(index / PLACE_NAMES.length);
    const name = round === 0 ? base : `${NAME_QUALIFIERS[(round - 1) % NAME_QUALIFIERS.length]} ${base}`;
    return this.pack === ENGLISH && kind !== '' ? `${name} ${kind}` : name;
  }

  productName(index: number): string {
    const brand = BRANDS[(index * 7 + this.random.int(0, 3)) % BRANDS.length] as string;
    const model = MODELS[index % MODELS.length] as string;
    const kind = this.pack === ENGLISH ? ` ${titleCase(singular(this.vars.topic))}` : '';
    return `${brand} ${model}${kind}`;
  }

  asin(): string {
    let id = 'B0';
    for (let i = 0; i < 8; i++) id += this.random.pick([...'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789']);
    return id;
  }

  price(): string {
    return `$${this.random.int(19, 499)}.${this.random.pick(['99', '95', '49', '00'])}`;
  }

  rating(): string {
    return `${this.random.int(38, 49) / 10}/5`;
  }

  /**
   * The title: the request's own, else the type's template, else (when the template would leave part
   * of the keyword out: "top rated …", "… in Berlin") one led by the keyword itself. A title of the
   * request's own without the keyword has the first paragraph say it: the keyword is always in one.
   */
  title(template: string, extra: Record<string, string> = {}, led: keyof LanguagePack['keywordTitles'] = 'guide'): string {
    const keyword = this.request.targetKeyword.trim().replace(/\s+/g, ' ');
    if (this.request.title !== undefined) {
      this.#keywordSentence = mentionsKeyword(this.request.title, keyword) ? undefined : { html: fill(this.pack.keywordSentence, { keyword }) };
      return this.request.title;
    }
    // A keyword that ends like the template goes on ("baratza encore review" + " Review: …") must not say it twice.
    const title = unescapeHtml(fill(template, { ...this.vars, ...extra })).replace(/\b([\p{L}\p{N}]+)(\s+\1\b)+/giu, '$1');
    if (mentionsKeyword(title, keyword)) return title;
    const Keyword = this.pack.titleCase ? titleCase(keyword) : capitalise(keyword);
    return unescapeHtml(fill(this.pack.keywordTitles[led], { ...this.vars, ...extra, Keyword }));
  }

  faq(): void {
    if (!this.request.includeFaq) return;
    this.steps.push('Researching frequently asked questions');
    this.heading(2, this.pack.headings.faq);
    const questions = this.random.int(3, Math.min(5, this.pack.faqQuestions.length));
    for (let i = 0; i < questions; i++) {
      this.heading(3, unescapeHtml(fill(this.pack.faqQuestions[i] as string, this.vars)));
      this.paragraph(this.prose.sentences(this.random.int(2, 3)));
    }
  }

  conclusion(heading = this.pack.headings.conclusion): void {
    this.steps.push('Writing the conclusion');
    this.heading(2, heading);
    // Models like to repeat their opening line at the end; Polish removes the repetition.
    const echo = this.prose.echo();
    this.paragraph([...(echo === undefined ? [] : [echo]), ...this.prose.sentences(this.random.int(3, 4))]);
  }

  introduction(words: number): void {
    this.steps.push('Writing the introduction');
    if (this.random.chance(0.3)) this.heading(2, this.pack.headings.introduction);
    this.paragraph([this.prose.voice(), ...this.prose.sentences(this.random.int(2, 4))]);
    if (words > 120) this.writeParagraphs(words - 60);
  }

  /** A paragraph that wraps the article up too early; Polish's remove-mid-article-conclusions drops it. */
  midConclusion(): void {
    this.paragraph([{ html: fill(this.pack.midConclusion, this.vars) }, ...this.prose.sentences(1)], true);
  }

  document(title: string): ArticleDocument {
    const description = this.blocks.find((b): b is Extract<Block, { kind: 'paragraph' }> => b.kind === 'paragraph');
    return {
      title,
      htmlLang: this.pack.htmlLang,
      blocks: this.blocks,
      fullDocument: this.random.chance(0.3),
      description: description?.sentences[0]?.html.replace(/<[^>]+>/g, '') ?? title,
    };
  }
}

/** fill() escapes for HTML; heading text is plain and escaped once more when rendered. */
function unescapeHtml(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

/** The composer of each article type: it writes the body into the composition and returns the title. */
const COMPOSERS: { [T in ArticleType]: (c: Composition, request: Extract<ArticleRequest, { articleType: T }>) => string } = {
  blog_post: composeBlogPost,
  listicle: composeList,
  local_places_roundup: composeList,
  retail_product_roundup: composeRoundup,
  retail_single_product_review: composeReview,
  video_article: composeVideoArticle,
  rewrite_blog_post: composeRewrite,
};

/** The one visible sentence of a sample in English for a language the writer has no words for. */
export function fallbackNotice(language: string): string {
  return `This sample is in English: the emulator has no words for ${language}.`;
}

/** Compose the article document for a parsed request. `seed` is the request's hash. */
export function composeArticle(request: ArticleRequest, seed: string): ComposedArticle {
  const pack = languagePack(request.language) ?? ENGLISH;
  const c = new Composition(request, seed, pack);
  if (languagePack(request.language) === undefined) {
    c.blocks.push({ kind: 'comment', text: `emulator: no templates for language "${request.language}"; the text is written in English` });
    // Said in the text too, where the site owner reads it: a page in English under an Arabic URL looks like a bug otherwise.
    c.blocks.push({ kind: 'raw', html: `<p>${escapeHtml(fallbackNotice(request.language))}</p>` });
  }
  c.steps.push(`Researching "${request.targetKeyword}"`);
  c.steps.push('Creating the outline');
  // COMPOSERS pairs each type with the composer of its request shape, so this request fits its composer.
  const compose = COMPOSERS[request.articleType] as (c: Composition, request: ArticleRequest) => string;
  const title = compose(c, request);
  return { doc: c.document(title), steps: c.steps, images: c.images, writtenLanguage: pack.name };
}

export type BlogPost = Extract<ArticleRequest, { articleType: 'blog_post' }>;

/** A blog post's outline and budgets, decided before any text is written. */
interface BlogPlan {
  title: string;
  sections: PlannedSection[];
  introWords: number;
  /** Words for each section (its own paragraphs and its sub-sections'). */
  sectionWords: number;
}

/** A blog post's sections and target words: by `articleLength`, or `numberOfSections` when it is `custom` (the placeholder and model writers alike). */
export function blogPostLength(request: BlogPost): { sections: number; words: number } {
  const length = request.articleLength === 'custom' ? undefined : ARTICLE_LENGTH_TARGETS[request.articleLength];
  const sections = length?.sections ?? request.numberOfSections ?? DEFAULT_CUSTOM_SECTIONS;
  return { sections, words: length?.words ?? sections * WORDS_PER_CUSTOM_SECTION + 250 };
}

/** The sections the request itself gives (`outline`, else `extraOutlinePrompt`), or undefined. */
export function requestedSections(request: BlogPost): PlannedSection[] | undefined {
  if (request.outline !== undefined) return sectionsFromOutline(request.outline);
  if (request.extraOutlinePrompt !== undefined && request.extraOutlinePrompt.trim() !== '') return sectionsFromOutlinePrompt(request.extraOutlinePrompt);
  return undefined;
}

function planBlogPost(c: Composition, request: BlogPost): BlogPlan {
  const title = c.title(c.random.pick(c.pack.titles));
  c.heading(1, title);

  const { sections: sectionCount, words: targetWords } = blogPostLength(request);
  const sections: PlannedSection[] = requestedSections(request) ?? generatedSections(c, sectionCount);

  const introWords = request.disableIntroduction === true ? 0 : 140;
  const fixedWords =
    introWords + (request.disableConclusion === true ? 0 : 70) + (request.includeFaq ? 170 : 0) + (request.shouldCiteSources ? 20 : 0);
  // Headings, the odd list and quote come on top of each section's paragraphs.
  const sectionOverhead = 30;
  const sectionWords = Math.max(90, Math.round((targetWords - fixedWords) / Math.max(1, sections.length)) - sectionOverhead);
  return { title, sections, introWords, sectionWords };
}

/** A blog post's images and videos, placed as its sections are written. */
class BlogMedia {
  readonly #c: Composition;
  readonly #size: { width: number; height: number };
  readonly imageCount: number;
  readonly videoCount: number;
  imagesPlaced = 0;
  videosPlaced = 0;

  constructor(c: Composition, request: BlogPost, sectionCount: number) {
    const media = DEFAULT_MEDIA_COUNTS[request.multimediaOption];
    this.#c = c;
    this.imageCount = generatesImages(request) ? Math.min(request.maxImages ?? media.images, sectionCount + 1) : 0;
    this.videoCount = media.videos === 0 ? 0 : Math.min(request.maxVideos ?? media.videos, sectionCount);
    this.#size = imageSizeToPixels(request.imageSize) ?? { width: 1024, height: 1024 };
  }

  placeImage(alt: string): void {
    if (this.imagesPlaced >= this.imageCount) return;
    this.imagesPlaced++;
    this.#c.steps.push(`Generating image ${this.imagesPlaced} of ${this.imageCount}`);
    this.#c.blocks.push({ kind: 'image', image: this.#c.image(this.#size.width, this.#size.height, true, alt) });
  }

  /** After section `index` of `total`: an image and a video where the ones left must, or may, go. */
  afterSection(title: string, index: number, total: number): void {
    const { random } = this.#c;
    if (this.imageCount - this.imagesPlaced > total - index - 1 || (this.imagesPlaced < this.imageCount && random.chance(0.5))) this.placeImage(title);
    if (this.videosPlaced < this.videoCount && (this.videoCount - this.videosPlaced >= total - index || random.chance(0.4))) {
      this.videosPlaced++;
      this.#c.steps.push(`Finding video ${this.videosPlaced} of ${this.videoCount}`);
      this.#c.blocks.push({ kind: 'video', embedUrl: `https://www.youtube.com/embed/${this.#c.youtubeId()}`, title });
    }
  }
}

/** The introduction (with the lead image when there is one more image than sections) and key takeaways. */
function blogIntroduction(c: Composition, request: BlogPost, plan: BlogPlan, media: BlogMedia): void {
  const { pack, random } = c;
  if (request.disableIntroduction !== true) {
    if (media.imageCount > plan.sections.length) media.placeImage(plan.title);
    c.introduction(plan.introWords);
    if (request.includeKeyTakeaways) {
      c.heading(random.chance(0.5) ? 2 : 3, pack.headings.keyTakeaways);
      c.blocks.push({ kind: 'list', ordered: false, items: pack.takeaways.slice(0, 4).map((t) => fill(t, c.vars)) });
    }
  }
  if (request.seoOptimizationLevel === 'manual' && request.extraEntitiesPrompt !== undefined) {
    const entities = request.extraEntitiesPrompt.split(',').map((e) => e.trim()).filter((e) => e !== '');
    if (entities.length > 0) c.paragraph([{ html: `${escapeHtml(entities.join(', '))}${pack.sentenceEnd}` }]);
  }
}

/** Where the one-off blocks go: the early conclusion, the table, the quote and the skipped heading level. */
interface SectionLayout {
  middle: number;
  tableAt: number;
  quoteAt: number;
  skipLevelAt: number;
}

function sectionLayout(random: Random, sectionCount: number): SectionLayout {
  const middle = Math.floor(sectionCount / 2);
  const tableAt = sectionCount > 1 ? random.int(0, sectionCount - 1) : -1;
  const quoteAt = random.int(0, sectionCount - 1);
  const skipLevelAt = random.int(0, sectionCount - 1);
  return { middle, tableAt, quoteAt, skipLevelAt };
}

function blogSection(c: Composition, plan: BlogPlan, layout: SectionLayout, section: PlannedSection, index: number): void {
  const { pack, random } = c;
  const { sections, sectionWords } = plan;
  c.steps.push(`Writing section ${index + 1} of ${sections.length}: ${section.title}`);
  c.heading(2, section.title);
  const subsections =
    section.subsections.length > 0
      ? section.subsections
      : random.chance(0.3)
        ? random.pick([pack.subsectionNames.slice(0, 2), pack.subsectionNames.slice(2, 4)])
        : index === layout.skipLevelAt
          ? [random.pick(pack.subsectionNames)]
          : [];
  const ownWords = subsections.length > 0 ? Math.round(sectionWords * 0.4) : sectionWords;
  c.writeParagraphs(ownWords);
  if (index === layout.middle && sections.length >= 3) c.midConclusion();
  if (index === layout.tableAt) comparisonTable(c);
  if (index === layout.quoteAt) c.blocks.push({ kind: 'quote', html: c.prose.sentence().html, cite: random.chance(0.5) ? null : 'Field notes' });
  if (random.chance(0.25)) c.blocks.push({ kind: 'list', ordered: random.chance(0.3), items: c.prose.sentences(random.int(3, 5)).map((s) => s.html) });
  // Models skip heading levels now and then (an h4 straight under an h2).
  const subLevel = index === layout.skipLevelAt ? 4 : 3;
  for (const sub of subsections) {
    c.heading(subLevel, sub);
    c.writeParagraphs(Math.round((sectionWords * 0.6) / subsections.length));
  }
}

function composeBlogPost(c: Composition, request: BlogPost): string {
  const plan = planBlogPost(c, request);
  const { sections } = plan;
  const media = new BlogMedia(c, request, sections.length);
  blogIntroduction(c, request, plan, media);
  const layout = sectionLayout(c.random, sections.length);
  sections.forEach((section, index) => {
    blogSection(c, plan, layout, section, index);
    media.afterSection(section.title, index, sections.length);
  });

  c.faq();
  if (request.disableConclusion !== true) c.conclusion();
  if (request.shouldCiteSources) sources(c, request.urls);
  return plan.title;
}

function generatedSections(c: Composition, count: number): PlannedSection[] {
  const names = c.pack.sectionNames.map((name) => unescapeHtml(fill(name, c.vars)));
  const start = c.random.int(0, names.length - 1);
  const sections: PlannedSection[] = [];
  for (let i = 0; i < count; i++) {
    const name = names[(start + i) % names.length] as string;
    const round = Math.floor(i / names.length);
    sections.push({ title: round === 0 ? name : `${name} (${round + 1})`, subsections: [] });
  }
  return sections;
}

function comparisonTable(c: Composition): void {
  const { pack, random } = c;
  const rows = random.int(3, 5);
  c.blocks.push({
    kind: 'table',
    head: [pack.labels.feature, 'A', 'B'],
    rows: Array.from({ length: rows }, (_, i) => [
      escapeHtml(pack.sectionNames[i % pack.sectionNames.length]?.replace(/\{[Tt]opic\}/g, c.vars.topic).replace(/[?？]$/, '') ?? ''),
      random.pick(['✓', '✗', 'Yes', 'No', '—']),
      random.pick(['✓', '✗', 'Yes', 'No', '—']),
    ]),
  });
}

function sources(c: Composition, urls: string[] | undefined): void {
  c.steps.push('Citing sources');
  c.heading(c.random.chance(0.7) ? 2 : 3, c.pack.headings.sources);
  const links =
    urls !== undefined && urls.length > 0
      ? urls
      : SOURCE_SITES.slice(0, c.random.int(3, SOURCE_SITES.length)).map((site) => site(c.vars.Topic));
  c.blocks.push({
    kind: 'list',
    ordered: c.random.chance(0.5),
    items: links.map((href) => `<a href="${escapeHtml(href)}"${c.random.chance(0.5) ? ' target="_blank" rel="noopener noreferrer"' : ''}>${escapeHtml(new URL(href).hostname + new URL(href).pathname)}</a>`),
  });
}

function composeList(c: Composition, request: ListRequest): string {
  const { pack, random, vars } = c;
  const places = request.articleType === 'local_places_roundup';
  const count = listItemCount(request);
  const title = c.title(places ? pack.placesTitle : pack.listTitle, { n: String(count) }, 'list');
  c.heading(1, title);
  c.introduction(120);

  const kind = titleCase(singular(vars.topic));
  const names = Array.from({ length: count }, (_, i) => c.itemName(i, kind));
  if (places) {
    c.blocks.push({
      kind: 'table',
      head: [pack.labels.place, pack.labels.rating, pack.labels.bestFor],
      rows: names.map((name) => [escapeHtml(name), c.rating(), escapeHtml(random.pick(pack.bestFor))]),
    });
  }
  // Some list articles nest the items under an h2, with h3 items; most use h2 items.
  const nested = random.chance(0.3);
  if (nested) c.heading(2, places ? unescapeHtml(fill(pack.placesTitle, { ...vars, n: String(count) })) : vars.Topic);
  names.forEach((name, index) => {
    c.steps.push(`Writing item ${index + 1} of ${count}: ${name}`);
    c.heading(nested ? 3 : 2, `${index + 1}. ${name}`);
    const bank = places ? pack.placeSentences : pack.itemSentences;
    const extra: Record<string, string> = places ? { place: name } : { item: name };
    c.paragraph([c.prose.from(bank, extra), ...c.prose.sentences(random.int(2, 4), extra)]);
    if (places) {
      const address = `${random.int(1, 240)} ${random.pick(STREETS)}, ${vars.city}`;
      const map = `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${name} ${vars.city}`)}`;
      c.blocks.push({
        kind: 'raw',
        html: `<p><strong>${escapeHtml(pack.labels.address)}:</strong> ${escapeHtml(address)}<br><b>${escapeHtml(pack.labels.hours)}:</b> 9:00–18:00<br>${escapeHtml(pack.labels.phone)}: +1 555 01${String(random.int(10, 99))}<br><a href="${escapeHtml(map)}" target="_blank">${escapeHtml(pack.labels.viewOnMap)}</a></p>`,
      });
    } else if (random.chance(0.3)) {
      c.blocks.push({ kind: 'list', ordered: false, items: c.prose.sentences(3, extra).map((s) => s.html) });
    }
  });

  if (request.enableSupplementalInformation) {
    const extraSections = random.int(1, 3);
    for (let i = 0; i < extraSections; i++) {
      const heading = pack.headings.supplemental[i] as string;
      c.steps.push(`Writing supplemental section ${i + 1} of ${extraSections}: ${heading}`);
      c.heading(2, heading);
      c.writeParagraphs(110);
    }
  }
  c.faq();
  c.conclusion();
  return title;
}

type Roundup = Extract<ArticleRequest, { articleType: 'retail_product_roundup' }>;

function productLink(domain: string, asin: string, affiliateId: string | undefined): string {
  const host = domain.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  const base = `https://${host.startsWith('www.') ? host : `www.${host}`}/dp/${asin}`;
  return affiliateId === undefined ? base : `${base}?tag=${encodeURIComponent(affiliateId)}`;
}

function composeRoundup(c: Composition, request: Roundup): string {
  const { pack, random } = c;
  const count = request.numRetailProducts;
  const title = c.title(pack.roundupTitle, { n: String(count) }, 'list');
  c.heading(1, title);
  c.introduction(120);
  const domain = request.retailDomain ?? DEFAULT_RETAIL_DOMAIN;
  const products = Array.from({ length: count }, (_, i) => ({ name: c.productName(i), asin: c.asin(), price: c.price(), rating: c.rating() }));

  c.heading(2, pack.headings.comparison);
  c.blocks.push({
    kind: 'table',
    head: [pack.labels.product, pack.labels.bestFor, pack.labels.price, pack.labels.rating],
    rows: products.map((p) => [escapeHtml(p.name), escapeHtml(random.pick(pack.bestFor)), p.price, p.rating]),
  });

  products.forEach((product, index) => {
    c.steps.push(`Reviewing product ${index + 1} of ${count}: ${product.name}`);
    c.heading(2, `${index + 1}. ${product.name}`);
    const link = productLink(domain, product.asin, request.affiliateId);
    c.blocks.push({ kind: 'raw', html: '<div class="product-card">' });
    c.blocks.push({ kind: 'image', image: c.image(600, 600, false, product.name) });
    c.blocks.push({
      kind: 'raw',
      html: `<p class="price">${escapeHtml(pack.labels.price)}: ${product.price} · ${escapeHtml(pack.labels.rating)}: ${product.rating}</p>\n<a class="button" href="${escapeHtml(link)}" rel="nofollow sponsored noopener" target="_blank">${escapeHtml(pack.labels.checkPrice)}</a>\n</div>`,
    });
    c.paragraph([c.prose.from(pack.productSentences, { product: product.name }), ...c.prose.sentences(random.int(2, 3), { product: product.name })]);
    if (request.enableFirstHandExperience) {
      // First-hand experience is written in the writer's own voice.
      c.paragraph([c.prose.voice(), c.prose.from(pack.productSentences, { product: product.name })]);
    }
    c.heading(random.chance(0.8) ? 3 : 4, pack.headings.pros);
    c.blocks.push({ kind: 'list', ordered: false, items: pickSome(random, pack.pros, 2, 3).map(escapeHtml) });
    c.heading(random.chance(0.8) ? 3 : 4, pack.headings.cons);
    c.blocks.push({ kind: 'list', ordered: false, items: pickSome(random, pack.cons, 1, 2).map(escapeHtml) });
  });

  c.heading(2, pack.headings.howWeChose);
  c.writeParagraphs(120);
  if (request.productSearchUrl !== undefined) {
    c.paragraph([{ html: `<a href="${escapeHtml(request.productSearchUrl)}">${escapeHtml(pack.labels.seeMoreProducts)}</a>` }]);
  }
  c.faq();
  c.conclusion();
  return title;
}

type Review = Extract<ArticleRequest, { articleType: 'retail_single_product_review' }>;

function composeReview(c: Composition, request: Review): string {
  const { pack, random } = c;
  const product = c.productName(0);
  const productId = request.productId ?? c.asin();
  const title = c.title(pack.reviewTitle, { product }, 'review');
  c.heading(1, title);
  c.introduction(request.enableCondensedMode === true ? 60 : 140);

  c.blocks.push({ kind: 'image', image: c.image(800, 800, false, product) });
  c.blocks.push({
    kind: 'raw',
    html: `<div class="product-box"><p><strong>${escapeHtml(product)}</strong> — ${escapeHtml(pack.labels.price)}: ${c.price()}</p><a href="${escapeHtml(productLink(DEFAULT_RETAIL_DOMAIN, productId, undefined))}" rel="nofollow sponsored">${escapeHtml(pack.labels.checkPrice)}</a></div>`,
  });
  c.heading(2, pack.headings.specifications);
  c.blocks.push({
    kind: 'table',
    head: [pack.labels.feature, ''],
    rows: [
      [escapeHtml(pack.labels.productId), escapeHtml(productId)],
      [escapeHtml(pack.labels.rating), c.rating()],
      [escapeHtml(pack.labels.bestFor), escapeHtml(random.pick(pack.bestFor))],
    ],
  });

  const sectionCount = request.enableCondensedMode === true ? 2 : 5;
  const sections = generatedSections(c, sectionCount);
  sections.forEach((section, index) => {
    c.steps.push(`Writing section ${index + 1} of ${sectionCount}: ${section.title}`);
    c.heading(2, section.title);
    c.writeParagraphs(request.enableCondensedMode === true ? 90 : 200, { product });
  });
  c.heading(2, pack.headings.pros);
  c.blocks.push({ kind: 'list', ordered: false, items: pickSome(random, pack.pros, 3, 4).map(escapeHtml) });
  c.heading(2, pack.headings.cons);
  c.blocks.push({ kind: 'list', ordered: false, items: pickSome(random, pack.cons, 2, 3).map(escapeHtml) });
  c.faq();
  c.conclusion(pack.headings.verdict);
  return title;
}

type VideoArticle = Extract<ArticleRequest, { articleType: 'video_article' }>;

/** The YouTube video id of a watch / share / embed / shorts URL. */
export function youtubeIdOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname.replace(/^www\.|^m\./, '');
    if (host === 'youtu.be') return parsed.pathname.slice(1) || undefined;
    if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
      const v = parsed.searchParams.get('v');
      if (v !== null && v !== '') return v;
      const match = /^\/(?:embed|shorts|live)\/([^/?#]+)/.exec(parsed.pathname);
      return match?.[1];
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function composeVideoArticle(c: Composition, request: VideoArticle): string {
  const { pack, random } = c;
  const title = c.title(pack.videoTitle);
  c.heading(1, title);
  c.introduction(100);
  const youtubeId = request.videoUrl === undefined ? c.youtubeId() : youtubeIdOf(request.videoUrl);
  c.steps.push('Transcribing the video');
  if (youtubeId !== undefined) {
    c.blocks.push({ kind: 'video', embedUrl: `https://www.youtube.com/embed/${encodeURIComponent(youtubeId)}`, title });
  } else if (request.videoUrl !== undefined) {
    c.blocks.push({ kind: 'raw', html: `<video controls src="${escapeHtml(request.videoUrl)}"></video>` });
  }
  const watchUrl = request.videoUrl ?? `https://www.youtube.com/watch?v=${youtubeId ?? ''}`;
  c.paragraph([c.prose.from(pack.videoSentences), { html: `<a href="${escapeHtml(watchUrl)}" target="_blank">${escapeHtml(pack.labels.watchVideo)}</a>` }]);

  const sections = generatedSections(c, request.rewriteAllSourceData === true ? 6 : 4);
  c.heading(2, pack.headings.keyMoments);
  c.blocks.push({
    kind: 'list',
    ordered: false,
    items: sections.map((s, i) => `<strong>${String(i * 2 + random.int(0, 1)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}</strong> – ${escapeHtml(s.title)}`),
  });
  sections.forEach((section, index) => {
    c.steps.push(`Writing section ${index + 1} of ${sections.length}: ${section.title}`);
    c.heading(2, section.title);
    c.paragraph([c.prose.from(pack.videoSentences), ...c.prose.sentences(2)]);
    c.writeParagraphs(150);
  });
  c.faq();
  c.conclusion();
  return title;
}

type Rewrite = Extract<ArticleRequest, { articleType: 'rewrite_blog_post' }>;

function composeRewrite(c: Composition, request: Rewrite): string {
  const { pack } = c;
  const title = c.title(pack.rewriteTitle);
  c.heading(1, title);
  if (request.articleUrl !== undefined) {
    c.steps.push('Reading the original article');
    c.blocks.push({ kind: 'quote', html: `${escapeHtml(pack.labels.basedOn)} <a href="${escapeHtml(request.articleUrl)}">${escapeHtml(request.articleUrl)}</a>`, cite: null });
  }
  c.introduction(140);
  const sections = generatedSections(c, request.rewriteAllSourceData === true ? 7 : 5);
  const middle = Math.floor(sections.length / 2);
  sections.forEach((section, index) => {
    c.steps.push(`Writing section ${index + 1} of ${sections.length}: ${section.title}`);
    c.heading(2, section.title);
    c.writeParagraphs(220);
    if (index === middle) c.midConclusion();
  });
  c.faq();
  c.conclusion();
  return title;
}

function pickSome(random: Random, items: readonly string[], min: number, max: number): string[] {
  const count = Math.min(items.length, random.int(min, max));
  const start = random.int(0, items.length - 1);
  return Array.from({ length: count }, (_, i) => items[(start + i) % items.length] as string);
}
