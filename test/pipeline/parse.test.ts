// Parsing: fragments and full documents both work, and nothing from <head> reaches the body.

import { describe, expect, test } from 'vitest';
import { processArticle } from '../../src/pipeline/index.js';
import { parseArticleHtml } from '../../src/pipeline/parse.js';

describe('parse', () => {
  test('should parse a fragment as body content', () => {
    const { tree, documentTitle } = parseArticleHtml('<p>One</p><p>Two</p>');
    expect(tree.children.map((node) => (node.type === 'element' ? node.tagName : node.type))).toEqual(['p', 'p']);
    expect(documentTitle).toBeUndefined();
  });

  test('should record no source positions', () => {
    const { tree } = parseArticleHtml('<p>One <b>two</b></p>');
    expect(JSON.stringify(tree)).not.toContain('position');
  });

  test('should take only the body of a full document', () => {
    const { tree } = parseArticleHtml('<!DOCTYPE html><html><head><title>T</title><style>p{}</style></head><body><p>Body</p></body></html>');
    expect(tree.children).toHaveLength(1);
    expect(tree.children[0]).toMatchObject({ type: 'element', tagName: 'p' });
  });

  test('should take the single <main> or <article> of a full document, without the page chrome', async () => {
    const page = (inner: string) => `<!doctype html><html><body><nav>Menu</nav>${inner}<footer>Copyright</footer></body></html>`;
    expect((await processArticle(page('<main><p>Main</p></main>'), { keyword: 'k' })).html).toBe('<p>Main</p>');
    expect((await processArticle(page('<div><article><p>Article</p></article></div>'), { keyword: 'k' })).html).toBe('<p>Article</p>');
    expect((await processArticle(page('<article><p>A</p></article><article><p>B</p></article>'), { keyword: 'k' })).html).toBe('Menu<p>A</p><p>B</p>Copyright');
  });

  test('should recognise a document after a BOM and comments', () => {
    const { documentTitle } = parseArticleHtml('\uFEFF <!-- generated --> <html><head><title> Doc  title </title></head><body></body></html>');
    expect(documentTitle).toBe('Doc title');
  });

  test('should recognise a document that starts at <body>', () => {
    const { tree } = parseArticleHtml('<body class="x"><p>Body</p></body>');
    expect(tree.children[0]).toMatchObject({ tagName: 'p' });
  });

  test('should keep head content out of the output of a full document', async () => {
    const result = await processArticle(
      '<html><head><title>Head title</title><style>.x{color:red}</style><script>var leaked = 1</script><meta name="x" content="y"></head><body><p>Body text</p></body></html>',
      { keyword: 'k' },
    );
    expect(result.html).toBe('<p>Body text</p>');
  });

  test('should trim the blank lines unwrapped chrome leaves at the ends', async () => {
    expect((await processArticle('\n<article>\n<header>\n</header>\n<p>x</p>\n</article>\n', { keyword: 'k' })).html).toBe('<p>x</p>');
  });

  test('should not let a <title> inside a fragment leak its text', async () => {
    const result = await processArticle('<title>Fragment title</title><p>Body</p>', { keyword: 'k' });
    expect(result.html).toBe('<p>Body</p>');
  });

  test('should process an empty string', async () => {
    const result = await processArticle('', { keyword: 'empty article' });
    expect(result).toMatchObject({ html: '', title: 'empty article', headings: [], wordCount: 0, readingTime: 0, excerpt: '' });
  });
});
