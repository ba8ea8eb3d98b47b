import { describe, expect, it } from 'vitest';
import { insertLinksInText, MAX_LINKS, WORDS_ANALYSED } from '../../src/emulator/internal-links.js';

const pages = [
  { url: 'https://site.example/shoes', title: 'Trail running shoes', keywords: ['trail running shoes', 'running shoes'] },
  { url: 'https://site.example/socks', title: 'Socks' },
];

describe('insertLinksInText', () => {
  it('should link the first occurrence of a page phrase in HTML text', () => {
    const result = insertLinksInText('<p>Good trail running shoes matter. More trail running shoes.</p>', pages, 'html');
    expect(result.content).toBe('<p>Good <a href="https://site.example/shoes" title="Trail running shoes">trail running shoes</a> matter. More trail running shoes.</p>');
  });

  it('should link each page once even when several of its phrases occur', () => {
    const result = insertLinksInText('<p>running shoes and trail running shoes</p>', pages, 'html');
    expect(result.links).toHaveLength(1);
  });

  it('should use the page title when a page has no keywords', () => {
    expect(insertLinksInText('<p>Wool socks keep feet dry.</p>', pages, 'html').links).toEqual([
      { phrase: 'socks', url: 'https://site.example/socks', title: 'Socks', start: 8, end: 13 },
    ]);
  });

  it('should not link inside existing links, headings, code or attributes', () => {
    const html = '<h2>Socks</h2><a href="/x">socks</a><code>socks</code><img alt="socks"><p>buy socks</p>';
    const result = insertLinksInText(html, pages, 'html');
    expect(result.links).toHaveLength(1);
    expect(result.content).toContain('<p>buy <a href="https://site.example/socks" title="Socks">socks</a></p>');
    expect(result.content).toContain('<h2>Socks</h2><a href="/x">socks</a><code>socks</code><img alt="socks">');
  });

  it('should report offsets of the phrase in the submitted content', () => {
    const content = '<p>Wool socks</p>';
    const [link] = insertLinksInText(content, pages, 'html').links;
    expect(content.slice(link?.start, link?.end)).toBe('socks');
  });

  it('should only link within the first 2,500 words and return the rest unchanged', () => {
    const filler = Array.from({ length: WORDS_ANALYSED }, (_, i) => `word${i}`).join(' ');
    const content = `${filler} socks and running shoes`;
    const result = insertLinksInText(content, pages, 'markdown');
    expect(result.links).toEqual([]);
    expect(result.content).toBe(content);
    expect(result.wordsAnalysed).toBe(WORDS_ANALYSED);
    const early = insertLinksInText(`socks ${filler}`, pages, 'markdown');
    expect(early.links).toHaveLength(1);
  });

  it('should insert at most 50 links', () => {
    const many = Array.from({ length: 80 }, (_, i) => ({ url: `https://site.example/p${i}`, keywords: [`topic${i}`] }));
    const content = many.map((_, i) => `topic${i}`).join(' and ');
    expect(insertLinksInText(content, many, 'markdown').links).toHaveLength(MAX_LINKS);
  });

  it('should write Markdown links and skip code, headings and existing links in Markdown', () => {
    const markdown = '# Socks\n\n`socks` and [socks](https://other.example) but socks here';
    const result = insertLinksInText(markdown, pages, 'markdown');
    expect(result.content).toBe('# Socks\n\n`socks` and [socks](https://other.example) but [socks](https://site.example/socks) here');
  });
});
