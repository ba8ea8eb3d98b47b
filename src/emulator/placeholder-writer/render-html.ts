// Rendering an article document to HTML with the inconsistencies real generated articles have.
import { createRandom, type Random } from '../seeded-random.js';
import type { ArticleDocument, ArticleImage, Block } from './article-document.js';
import { escapeHtml } from '../../lang/escape.js';

export interface RenderOptions {
  /** Seed for the cosmetic choices (classes, wrappers, attribute quirks). */
  seed: string;
  /** The URL an image is served from. */
  imageUrl: (image: ArticleImage) => string;
  sentenceGap: string;
}

/** HTML for a document; the same document, seed and image URLs always give the same HTML. */
export function renderHtml(doc: ArticleDocument, options: RenderOptions): string {
  const random = createRandom(`${options.seed}:render`);
  const parts: string[] = [];
  for (const block of doc.blocks) parts.push(renderBlock(block, random, options));
  // Editors and models are inconsistent about whitespace between blocks.
  const body = parts.join(random.chance(0.5) ? '\n' : '\n\n');
  if (!doc.fullDocument) return body + '\n';
  return fullDocument(doc, body);
}

/** The body inside a whole HTML page, as some generated articles come. */
function fullDocument(doc: ArticleDocument, body: string): string {
  const jsonLd = JSON.stringify({ '@context': 'https://schema.org', '@type': 'Article', headline: doc.title }).replace(/</g, '\\u003c');
  return [
    '<!DOCTYPE html>',
    `<html lang="${doc.htmlLang}">`,
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(doc.title)}</title>`,
    `<meta name="description" content="${escapeHtml(doc.description)}">`,
    `<script type="application/ld+json">${jsonLd}</script>`,
    '<style>.product-card{border:1px solid #ddd;padding:1em}</style>',
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function renderBlock(block: Block, random: Random, options: RenderOptions): string {
  switch (block.kind) {
    case 'heading':
      return renderHeading(block, random);
    case 'paragraph':
      return renderParagraph(block, random, options.sentenceGap);
    case 'empty':
      return random.chance(0.5) ? '<p>&nbsp;</p>' : '<p></p>';
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      const wrapInP = random.chance(0.2);
      const items = block.items.map((item) => (wrapInP ? `<li><p>${item}</p></li>` : `<li>${item}</li>`));
      return `<${tag}>\n${items.join('\n')}\n</${tag}>`;
    }
    case 'table':
      return renderTable(block, random);
    case 'quote':
      return block.cite === null
        ? `<blockquote>${block.html}</blockquote>`
        : `<blockquote><p>${block.html}</p><cite>${escapeHtml(block.cite)}</cite></blockquote>`;
    case 'image':
      return renderImage(block.image, random, options);
    case 'video': {
      const iframe = `<iframe width="560" height="315" src="${escapeHtml(block.embedUrl)}" title="${escapeHtml(block.title)}" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture" allowfullscreen></iframe>`;
      return random.chance(0.5) ? `<div class="video-container">${iframe}</div>` : iframe;
    }
    case 'raw':
      return block.html;
    case 'comment':
      return `<!-- ${block.text.replace(/--/g, '- -')} -->`;
  }
}

function renderHeading(block: Extract<Block, { kind: 'heading' }>, random: Random): string {
  const text = escapeHtml(block.text);
  const roll = random.next();
  if (roll < 0.25) return `<h${block.level} class="wp-block-heading">${text}</h${block.level}>`;
  if (roll < 0.4) return `<h${block.level} id="${slug(block.text)}">${text}</h${block.level}>`;
  if (roll < 0.45) return `<h${block.level}><strong>${text}</strong></h${block.level}>`;
  return `<h${block.level}>${text}</h${block.level}>`;
}

function renderParagraph(block: Extract<Block, { kind: 'paragraph' }>, random: Random, sentenceGap: string): string {
  const sentences = block.sentences.map((s) => s.html);
  if (sentences.length > 1 && random.chance(0.15)) {
    const at = random.int(0, sentences.length - 1);
    sentences[at] = `<strong>${sentences[at]}</strong>`;
  }
  if (sentences.length > 2 && random.chance(0.08)) {
    const at = random.int(1, sentences.length - 1);
    sentences[at] = `<br>${sentences[at]}`;
  }
  const open = random.chance(0.1) ? '<p style="text-align: left;">' : '<p>';
  return `${open}${sentences.join(sentenceGap)}</p>`;
}

function renderTable(block: Extract<Block, { kind: 'table' }>, random: Random): string {
  const headCells = block.head.map((cell) => `<th>${cell}</th>`).join('');
  const rows = block.rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('\n');
  // Some tables have a thead, others put the header row straight into the body.
  return random.chance(0.5)
    ? `<table>\n<thead><tr>${headCells}</tr></thead>\n<tbody>\n${rows}\n</tbody>\n</table>`
    : `<table border="1" cellpadding="4">\n<tr>${headCells}</tr>\n${rows}\n</table>`;
}

function renderImage(image: ArticleImage, random: Random, options: RenderOptions): string {
  const attrs = [`src="${escapeHtml(options.imageUrl(image))}"`];
  if (image.alt !== null) attrs.push(`alt="${escapeHtml(image.alt)}"`);
  if (!image.omitSize) attrs.push(`width="${image.width}"`, `height="${image.height}"`);
  if (random.chance(0.5)) attrs.push('loading="lazy"');
  const img = `<img ${attrs.join(' ')}>`;
  if (image.caption === null) return random.chance(0.5) ? `<p>${img}</p>` : img;
  return `<figure>${img}<figcaption>${escapeHtml(image.caption)}</figcaption></figure>`;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
}
