// Sanitize rules: the allow-list, elements stripped with their content, URL schemes, embeds, ids.

import { describe, expect, test } from 'vitest';
import { processArticle, type ArticleContext } from '../../src/pipeline/index.js';
import { compileEmbedHosts } from '../../src/pipeline/embeds.js';
import { parseArticleHtml } from '../../src/pipeline/parse.js';
import { sanitizeArticleTree } from '../../src/pipeline/sanitize.js';

async function clean(html: string, context: Partial<ArticleContext> = {}): Promise<string> {
  return (await processArticle(html, { keyword: 'sanitize', ...context })).html;
}

describe('allowed markup', () => {
  test('should keep figure and figcaption', async () => {
    expect(await clean('<figure><img src="/a.png" alt="A"><figcaption>Cap</figcaption></figure>')).toBe(
      '<figure><img src="/a.png" alt="A" fetchpriority="high"><figcaption>Cap</figcaption></figure>',
    );
  });

  test('should keep table markup with spans and scope', async () => {
    const html = '<table><caption>C</caption><thead><tr><th scope="col" colspan="2">H</th></tr></thead><tbody><tr><td rowspan="2">1</td><td>2</td></tr></tbody><tfoot><tr><td>F</td></tr></tfoot></table>';
    expect(await clean(html)).toBe(html);
  });

  test('should keep list markup with start, reversed and value', async () => {
    const html = '<ol start="3" reversed><li value="5">a</li></ol><ul><li>b</li></ul><dl><dt>t</dt><dd>d</dd></dl>';
    expect(await clean(html)).toBe(html);
  });

  test('should let loading and decoding of input images through the sanitize step', () => {
    const tree = sanitizeArticleTree(parseArticleHtml('<img src="/b.png" alt="b" loading="lazy" decoding="async" onload="x()">').tree, compileEmbedHosts([]));
    expect(tree.children[0]).toMatchObject({ tagName: 'img', properties: { src: '/b.png', alt: 'b', loading: 'lazy', decoding: 'async' } });
    expect(Object.keys((tree.children[0] as { properties: object }).properties)).toHaveLength(4);
  });

  test('should keep lang and dir="rtl" on any element (a right-to-left article, docs/languages.md), and drop another dir', async () => {
    expect(await clean('<div lang="ar" dir="rtl"><p>قهوة</p><p dir="sideways">x</p></div>')).toBe('<div lang="ar" dir="rtl"><p>قهوة</p><p>x</p></div>');
  });

  test('should keep blockquote cite, lang, dir, ruby and details', async () => {
    const html = '<blockquote cite="https://q.example/"><p lang="de" dir="ltr">Zitat</p></blockquote><ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp></ruby><details open><summary>Q</summary><p>A</p></details>';
    expect(await clean(html)).toBe(html);
  });

  test('should unwrap unknown wrappers and keep their text', async () => {
    expect(await clean('<article><center><font size="2">Kept text</font></center></article>')).toBe('Kept text');
  });
});

describe('stripped with their contents', () => {
  test.each([
    ['script', '<script>var secret = 1;</script>'],
    ['style', '<style>.secret { color: red }</style>'],
    ['template', '<template><p>secret</p></template>'],
    ['noscript', '<noscript><p>secret</p></noscript>'],
    ['svg', '<svg><text>secret</text></svg>'],
    ['math', '<math><mi>secret</mi></math>'],
    ['object', '<object data="/x.swf">secret</object>'],
    ['embed', '<embed src="/x.swf">'],
    ['select', '<select><option>secret</option></select>'],
    ['textarea', '<textarea>secret</textarea>'],
    ['button', '<button>secret</button>'],
    ['input', '<input value="secret">'],
  ])('should remove %s with everything inside it', async (_tag, html) => {
    expect(await clean(`<p>before</p>${html}<p>after</p>`)).toBe('<p>before</p><p>after</p>');
  });

  test('should unwrap a form but strip its controls', async () => {
    expect(await clean('<form action="/x"><p>Sign up</p><input name="email"><button>Go</button></form>')).toBe('<p>Sign up</p>');
  });
});

describe('URLs', () => {
  test.each([
    ['https', 'https://a.example/x'],
    ['http', 'http://a.example/x'],
    ['mailto', 'mailto:someone@a.example'],
    ['relative path', '/guides/x/'],
    ['relative file', 'other.html'],
    ['fragment', '#section'],
    ['query', '?page=2'],
  ])('should keep a %s link', async (_kind, href) => {
    expect(await clean(`<p><a href="${href}">x</a></p>`)).toContain(`href="${href}"`);
  });

  test('should compare schemes case-insensitively and write them lower-case', async () => {
    expect(await clean('<p><a href="HTTPS://A.example/X">x</a> <a href="MailTo:a@b.example">m</a></p>')).toContain(
      '<a href="https://A.example/X" rel="noopener nofollow">x</a> <a href="mailto:a@b.example">m</a>',
    );
  });

  test.each(['ftp://a.example/', 'tel:+123', 'javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'intent://x'])(
    'should drop the link and keep its text for %s',
    async (href) => {
      expect(await clean(`<p><a href="${href}">text</a></p>`)).toBe('<p>text</p>');
    },
  );

  test('should remove an image whose src is not http(s) or relative', async () => {
    expect(await clean('<p>a<img src="data:image/png;base64,AAAA" alt="x">b</p>')).toBe('<p>ab</p>');
  });

  test('should drop cite with a disallowed scheme but keep the quote', async () => {
    expect(await clean('<blockquote cite="javascript:x"><p>q</p></blockquote>')).toBe('<blockquote><p>q</p></blockquote>');
  });
});

describe('embeds', () => {
  test('should rewrite an allowed iframe to the safe form with loading="lazy"', async () => {
    expect(await clean('<iframe src="https://www.youtube.com/embed/abc?start=5" width="560" height="315" frameborder="0" onload="x()" style="border:0" title="A video"></iframe>')).toBe(
      '<iframe src="https://www.youtube.com/embed/abc?start=5" title="A video" width="560" height="315" loading="lazy" referrerpolicy="strict-origin-when-cross-origin" allow="autoplay; encrypted-media; fullscreen; picture-in-picture" allowfullscreen sandbox="allow-scripts allow-same-origin allow-presentation allow-popups allow-popups-to-escape-sandbox"></iframe>',
    );
  });

  test('should upgrade an allowed http iframe to https', async () => {
    expect(await clean('<iframe src="http://player.vimeo.com/video/1"></iframe>')).toContain('src="https://player.vimeo.com/video/1"');
  });

  test('should give an iframe without a title one', async () => {
    expect(await clean('<iframe src="https://www.youtube-nocookie.com/embed/a"></iframe>')).toContain('title="Embedded content (www.youtube-nocookie.com)"');
  });

  test.each([
    'https://evil.example/embed/x',
    'https://notyoutube.com/embed/x',
    'https://youtube.com.evil.example/embed/x',
    'https://vimeo.com/1',
    'https://www.youtube.com:444/embed/x',
    'https://user@www.youtube.com/embed/x',
    '/embed/x',
  ])('should drop an iframe from %s', async (src) => {
    expect(await clean(`<p>a</p><iframe src="${src}"></iframe><p>b</p>`)).toBe('<p>a</p><p>b</p>');
  });

  test('should use a configured allow-list instead of the default', async () => {
    const html = '<iframe src="https://video.example.org/embed/1"></iframe><iframe src="https://www.youtube.com/embed/2"></iframe>';
    const out = await clean(html, { embedHosts: ['video.example.org'] });
    expect(out).toContain('src="https://video.example.org/embed/1"');
    expect(out).not.toContain('youtube');
  });

  test('should drop every iframe with an empty allow-list', async () => {
    expect(await clean('<iframe src="https://www.youtube.com/embed/2"></iframe>', { embedHosts: [] })).toBe('');
  });
});

describe('attributes', () => {
  test('should drop id and name from the input', async () => {
    expect(await clean('<p id="intro" name="intro">a<a name="x" id="y" href="/z">z</a><img id="i" name="n" src="/i.png" alt="i"></p>')).toBe(
      '<p>a<a href="/z">z</a><img src="/i.png" alt="i" fetchpriority="high"></p>',
    );
  });

  test('should drop class, style, data-* and event handler attributes', async () => {
    expect(await clean('<p class="c" style="color:red" data-x="1" onclick="x()" title="t">a</p>')).toBe('<p title="t">a</p>');
  });

  test('should drop rel and target from the input', async () => {
    expect(await clean('<p><a href="/x" rel="opener dofollow" target="_blank">a</a></p>')).toBe('<p><a href="/x">a</a></p>');
  });

  test('should drop srcset and sizes and unwrap picture', async () => {
    expect(await clean('<picture><source srcset="/a.avif" type="image/avif"><img src="/a.png" srcset="/a@2x.png 2x" sizes="100vw" alt="a"></picture>')).toBe(
      '<img src="/a.png" alt="a" fetchpriority="high">',
    );
  });

  test('should drop comments and the doctype', async () => {
    expect(await clean('<!doctype html><html><body><!-- note --><p>a</p></body></html>')).toBe('<p>a</p>');
  });
});
