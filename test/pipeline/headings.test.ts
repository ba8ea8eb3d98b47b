// Heading rules: the title leaves the body, the outline starts at h2 without gaps, ids are unique and stable.

import { describe, expect, test } from 'vitest';
import { processArticle, type ArticleContext } from '../../src/pipeline/index.js';

async function run(html: string, context: Partial<ArticleContext> = {}) {
  return processArticle(html, { keyword: 'the keyword', ...context });
}

describe('title', () => {
  test('should take the leading h1 as the title and remove it from the body', async () => {
    const result = await run('<h1>The <em>Title</em></h1><p>Body</p>');
    expect(result.title).toBe('The Title');
    expect(result.html).toBe('<p>Body</p>');
  });

  test('should take the first h1 anywhere when it is not leading', async () => {
    const result = await run('<p>Intro</p><h2>Section</h2><h1>Late title</h1><p>Body</p>');
    expect(result.title).toBe('Late title');
    expect(result.html).not.toContain('Late title');
  });

  test('should turn a second h1 into an h2', async () => {
    const result = await run('<h1>Title</h1><h1>Another top heading</h1><p>Body</p>');
    expect(result.html).toBe('<h2 id="another-top-heading">Another top heading</h2><p>Body</p>');
  });

  test('should join the lines of a title with a <br>', async () => {
    expect((await run('<h1>Remote work:<br>nine habits</h1>')).title).toBe('Remote work: nine habits');
  });

  test('should fall back to the document <title>, then context.title, then the keyword', async () => {
    expect((await run('<html><head><title>Doc title</title></head><body><p>x</p></body></html>', { title: 'Given' })).title).toBe('Doc title');
    expect((await run('<p>x</p>', { title: 'Given title' })).title).toBe('Given title');
    expect((await run('<p>x</p>')).title).toBe('the keyword');
  });

  test('should skip an empty h1 when choosing the title', async () => {
    const result = await run('<h1> </h1><h1>Real title</h1><p>x</p>');
    expect(result.title).toBe('Real title');
    expect(result.html).toBe('<p>x</p>');
  });
});

describe('outline', () => {
  test('should shift a body that starts at h3 up to h2', async () => {
    const result = await run('<h3>A</h3><h4>A.1</h4><h3>B</h3>');
    expect(result.headings.map((heading) => heading.depth)).toEqual([2, 3, 2]);
  });

  test('should shift h1 sections down to h2 with their subsections', async () => {
    const result = await run('<h1>Title</h1><h1>A</h1><h2>A.1</h2><h1>B</h1>');
    expect(result.headings.map((heading) => [heading.text, heading.depth])).toEqual([['A', 2], ['A.1', 3], ['B', 2]]);
  });

  test('should close a skipped level', async () => {
    const result = await run('<h2>A</h2><h4>A.1</h4><h6>A.1.1</h6><h3>A.2</h3>');
    expect(result.html).toBe('<h2 id="a">A</h2><h3 id="a1">A.1</h3><h4 id="a11">A.1.1</h4><h3 id="a2">A.2</h3>');
  });

  test('should make a shallower heading after a deep start a sibling at h2', async () => {
    const result = await run('<h4>Deep start</h4><h2>Shallower</h2>');
    expect(result.headings.map((heading) => heading.depth)).toEqual([2, 2]);
  });

  test('should never go past h6', async () => {
    const result = await run('<h2>1</h2><h3>2</h3><h4>3</h4><h5>4</h5><h6>5</h6>');
    expect(Math.max(...result.headings.map((heading) => heading.depth))).toBe(6);
  });

  test('should drop empty headings', async () => {
    const result = await run('<h2></h2><h2>&nbsp;</h2><h2><img src="/a.png" alt="only an image"></h2><h2>Kept</h2>');
    expect(result.html).toBe('<h2 id="kept">Kept</h2>');
    expect(result.headings).toEqual([{ depth: 2, slug: 'kept', text: 'Kept' }]);
  });
});

describe('ids', () => {
  test('should give every heading a github-slugger id', async () => {
    const result = await run("<h2>What's new in 2025?</h2><h3>Ça marche — très bien</h3>");
    expect(result.headings.map((heading) => heading.slug)).toEqual(['whats-new-in-2025', 'ça-marche--très-bien']);
  });

  test('should make repeated headings unique', async () => {
    const result = await run('<h2>Communication</h2><h2>Focus</h2><h2>Communication</h2>');
    expect(result.headings.map((heading) => heading.slug)).toEqual(['communication', 'focus', 'communication-1']);
  });

  test('should give the same ids for the same input', async () => {
    const html = '<h2>Same</h2><h2>Same</h2><h3>Other</h3>';
    expect((await run(html)).html).toBe((await run(html)).html);
  });

  test('should name a heading without letters "section"', async () => {
    expect((await run('<h2>???</h2><h2>!!!</h2>')).headings.map((heading) => heading.slug)).toEqual(['section', 'section-1']);
  });

  test('should keep Japanese heading text in the id', async () => {
    expect((await run('<h2>日本茶の種類</h2>')).headings[0]!.slug).toBe('日本茶の種類');
  });

  test('should prefix ids with headingIdPrefix', async () => {
    const result = await run('<h2>Config</h2>', { headingIdPrefix: 'h-' });
    expect(result.html).toBe('<h2 id="h-config">Config</h2>');
    expect(result.headings[0]!.slug).toBe('h-config');
  });

  test('should point the article’s fragment links at the new heading ids', async () => {
    const result = await run('<ul><li><a href="#why">Why</a></li><li><a href="#s%C3%A9chage">Séchage</a></li><li><a href="#gone">Gone</a></li></ul><h3 id="why">Why cast iron</h3><h3 id="séchage">Séchage</h3>');
    expect(result.html).toBe(
      '<ul><li><a href="#why-cast-iron">Why</a></li><li><a href="#séchage">Séchage</a></li><li><a href="#gone">Gone</a></li></ul><h2 id="why-cast-iron">Why cast iron</h2><h2 id="séchage">Séchage</h2>',
    );
  });

  test('should report headings in the MarkdownHeading shape, in document order', async () => {
    const result = await run('<h1>T</h1><h2>One <code>code</code></h2><h3>Two</h3>');
    expect(result.headings).toEqual([
      { depth: 2, slug: 'one-code', text: 'One code' },
      { depth: 3, slug: 'two', text: 'Two' },
    ]);
  });
});
