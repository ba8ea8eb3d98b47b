// XSS corpus: every vector goes through the whole pipeline and must come out with nothing executable.

import { describe, expect, test } from 'vitest';
import { buildLinkMap, processArticle } from '../../src/pipeline/index.js';
import { findExecutableContent } from './executable-content.js';

const VECTORS: [name: string, html: string][] = [
  // Script elements
  ['script element', '<script>alert(1)</script>'],
  ['upper-case script with src', '<SCRIPT SRC=//xss.example/x.js></SCRIPT>'],
  ['script with a slash-separated attribute', '<script/xss src="//xss.example/x.js"></script>'],
  ['double open bracket script', '<<script>alert(1);//<</script>'],
  ['split script tag', '<scr<script>ipt>alert(1)</script>'],
  ['unclosed script', '<script>alert(1)'],
  ['script in template', '<template><script>alert(1)</script><img src=x onerror=alert(1)></template>'],
  ['conditional comment with script', '<!--[if gte IE 4]><script>alert(1)</script><![endif]-->'],
  // Event handlers
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['mixed-case onerror', '<img src=x oNeRrOr=alert(1)>'],
  ['onerror with entity-encoded body', '<img src="x" onerror="&#97;lert(1)">'],
  ['unterminated onerror', '<img src=x onerror="alert(1)"//'],
  ['onerror eval of src', '<img src=x:alert(alt) onerror=eval(src) alt=0>'],
  ['body onload', '<body onload=alert(1)><p>text</p></body>'],
  ['div onmouseover', '<div onmouseover="alert(1)">hover me</div>'],
  ['link with onclick', '<a href="https://ok.example/" onclick="alert(1)">x</a>'],
  ['details ontoggle', '<details open ontoggle=alert(1)><summary>x</summary>y</details>'],
  ['marquee onstart', '<marquee onstart=alert(1)>x</marquee>'],
  ['input autofocus onfocus', '<input onfocus=alert(1) autofocus>'],
  ['select autofocus onfocus', '<select onfocus=alert(1) autofocus><option>x</option></select>'],
  ['textarea autofocus onfocus', '<textarea onfocus=alert(1) autofocus>x</textarea>'],
  ['keygen autofocus onfocus', '<keygen onfocus=alert(1) autofocus>'],
  ['video source onerror', '<video><source onerror="alert(1)"></video>'],
  ['audio onerror', '<audio src=x onerror=alert(1)>'],
  ['popover beforetoggle', '<button popovertarget=p>x</button><div popover id=p onbeforetoggle=alert(1)>y</div>'],
  ['custom element onclick', '<custom-element onclick=alert(1)>custom</custom-element>'],
  ['unknown element onclick', '<x onclick=alert(1)>x</x>'],
  ['heading onclick', '<h2 onclick=alert(1)>Heading</h2>'],
  ['image loading hints with onload', '<img src="https://x.example/y.png" loading="lazy" fetchpriority="high" decoding="sync" onload="alert(1)">'],
  ['NUL inside attribute', '<img src="x\u0000" onerror=alert(1)>'],
  // javascript: URLs with case, whitespace and encoding tricks
  ['javascript: href', '<a href="javascript:alert(1)">x</a>'],
  ['mixed-case javascript: href', '<a href="JaVaScRiPt:alert(1)">x</a>'],
  ['leading spaces before javascript:', '<a href="   javascript:alert(1)">x</a>'],
  ['tab inside javascript:', '<a href="java\tscript:alert(1)">x</a>'],
  ['encoded tab inside javascript:', '<a href="java&#9;script:alert(1)">x</a>'],
  ['encoded newline inside javascript:', '<a href="java&#x0A;script:alert(1)">x</a>'],
  ['carriage return inside javascript:', '<a href="java\rscript:alert(1)">x</a>'],
  ['decimal entities javascript:', '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>'],
  ['zero-padded entities javascript:', '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>'],
  ['hex entity and &colon;', '<a href="&#x6A;avascript&colon;alert(1)">x</a>'],
  ['entity colon without semicolon', '<a href="javascript&#58alert(1)">x</a>'],
  ['control character before javascript:', '<a href="&#1;javascript:alert(1)">x</a>'],
  ['javascript: with an image inside the link', '<a href="javascript:alert(1)" id="x"><img src="https://x.example/a.png"></a>'],
  ['javascript: img src', '<img src="javascript:alert(1)">'],
  ['unquoted mixed-case javascript: img src', '<img src=JaVaScRiPt:alert(1)>'],
  ['javascript: in srcset', '<img src="https://x.example/a.png" srcset="javascript:alert(1) 1x">'],
  ['javascript: in blockquote cite', '<blockquote cite="javascript:alert(1)">quote</blockquote>'],
  ['feed: wrapping javascript:', '<a href="feed:javascript:alert(1)">x</a>'],
  ['isindex action', '<isindex action="javascript:alert(1)" type=submit>'],
  // vbscript: and data: URLs
  ['vbscript: href', '<a href="vbscript:msgbox(1)">x</a>'],
  ['mixed-case vbscript: href', '<a href="VBScript:msgbox(1)">x</a>'],
  ['data: HTML href', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
  ['upper-case data: href', '<a href="DATA:text/html,<script>alert(1)</script>">x</a>'],
  ['data: SVG image', '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">'],
  ['data: with leading whitespace', '<img src=" \n data:image/png;base64,iVBORw0KGgo=">'],
  // SVG and MathML
  ['svg onload', '<svg onload=alert(1)>'],
  ['script inside svg', '<svg><script>alert(1)</script></svg>'],
  ['svg animate onbegin', '<svg><animate onbegin=alert(1) attributeName=x dur=1s></svg>'],
  ['svg xlink:href javascript:', '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>'],
  ['svg use with data:', '<svg><use href="data:image/svg+xml;base64,PHN2ZyBpZD0neCc+PC9zdmc+#x"/></svg>'],
  ['iframe in svg foreignObject', '<svg><foreignObject><iframe src=javascript:alert(1)></iframe></foreignObject></svg>'],
  ['style in svg', '<svg><style><img src=x onerror=alert(1)></style></svg>'],
  ['math href', '<math href="javascript:alert(1)">click</math>'],
  ['maction xlink:href', '<math><maction actiontype="statusline#http://x" xlink:href="javascript:alert(1)">click</maction></math>'],
  // iframes, srcdoc, embeds
  ['javascript: iframe', '<iframe src="javascript:alert(1)"></iframe>'],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
  ['allowed iframe with srcdoc and onload', '<iframe src="https://www.youtube.com/embed/x" srcdoc="<script>alert(1)</script>" onload="alert(1)"></iframe>'],
  ['iframe from another host', '<iframe src="https://evil.example/"></iframe>'],
  ['iframe host with allowed host as prefix', '<iframe src="https://youtube.com.evil.example/embed/x"></iframe>'],
  ['iframe with allowed host in the query', '<iframe src="https://evil.example/?youtube.com"></iframe>'],
  ['iframe with credentials trick', '<iframe src="https://user:pass@www.youtube.com@evil.example/"></iframe>'],
  ['protocol-relative iframe', '<iframe src="//evil.example/youtube.com/embed"></iframe>'],
  ['data: iframe', '<iframe src="data:text/html,<script>alert(1)</script>"></iframe>'],
  ['allowed iframe over http with a port', '<iframe src="http://www.youtube.com:8080/embed/x"></iframe>'],
  ['frameset', '<frameset><frame src="javascript:alert(1)"></frameset>'],
  ['object data javascript:', '<object data="javascript:alert(1)"></object>'],
  ['object scriptlet', '<object type="text/x-scriptlet" data="http://x.example/xss.sct"></object>'],
  ['embed javascript:', '<embed src="javascript:alert(1)">'],
  ['embed flash', '<embed src="http://x.example/xss.swf" allowscriptaccess=always>'],
  ['applet', '<applet code="XSS.class"></applet>'],
  ['portal', '<portal src="https://evil.example"></portal>'],
  // meta refresh, base href, forms
  ['meta refresh to javascript:', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['meta charset UTF-7', '<meta charset="x-imap4-modified-utf7">'],
  ['base href javascript:', '<base href="javascript:alert(1)//"><a href="/x">x</a>'],
  ['base href to another site', '<base href="https://evil.example/"><a href="/x">x</a>'],
  ['form action javascript:', '<form action="javascript:alert(1)"><input type=submit></form>'],
  ['button formaction', '<form><button formaction="javascript:alert(1)">x</button></form>'],
  ['link stylesheet', '<link rel=stylesheet href="http://x.example/xss.css">'],
  // Style-based
  ['style element @import', "<style>@import 'http://x.example/xss.css';</style>"],
  ['style element url(javascript:)', '<style>body{background:url("javascript:alert(1)")}</style>'],
  ['style attribute url(javascript:)', '<div style="background-image:url(\'javascript:alert(1)\')">x</div>'],
  ['style attribute expression()', '<div style="width: expression(alert(1))">x</div>'],
  ['image style attribute', '<img src="x" style="background:url(javascript:alert(1))">'],
  ['full-page overlay link', '<a href="https://example.com" style="position:fixed;top:0;left:0;width:100%;height:100%">x</a>'],
  // DOM clobbering
  ['form id location with input name', '<form id="location"><input name="href"></form>'],
  ['img name cookie', '<img name="cookie" src="https://x.example/a.png">'],
  ['link id defaultView', '<a id="defaultView" href="https://x.example/">x</a>'],
  ['form name getElementById', '<form name="getElementById"></form>'],
  ['img id and name', '<img id="_config" name="scriptUrl" src="https://x.example/a.png">'],
  ['heading with id and name', '<h2 id="config" name="x">Config</h2>'],
  ['anchor name', '<a name="top"></a><p>x</p>'],
  ['data-bind attribute', '<div data-bind="html: \'<img src=x onerror=alert(1)>\'">x</div>'],
  ['class attribute', '<p class="hidden admin-only">x</p>'],
  // Mutation XSS
  ['noscript title breakout', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>'],
  ['noembed title breakout', '<noembed><img title="</noembed><img src=x onerror=alert(1)>"></noembed>'],
  ['xmp title breakout', '<xmp><img title="</xmp><img src=x onerror=alert(1)>"></xmp>'],
  ['title element breakout', '<title><img title="</title><img src=x onerror=alert(1)>"></title>'],
  ['textarea breakout', '<textarea><img title="</textarea><img src=x onerror=alert(1)>"></textarea>'],
  ['comment with fake close', '<!--<img src="--><img src=x onerror=alert(1)//">'],
  ['comment --!> close', '<!-- --!><img src=x onerror=alert(1)> -->'],
  ['svg p style namespace confusion', '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">'],
  ['math mglyph style', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
  ['form math mglyph', '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>'],
  ['plaintext', '<plaintext><img src=x onerror=alert(1)>'],
  ['rel opener with target', '<a href="https://x.example/" rel="opener" target="_blank">x</a>'],
  ['ping tracking', '<a href="https://x.example/" ping="https://evil.example/">x</a>'],
];

const links = buildLinkMap({ links: { alert: '/alerts/', 'hover me': '/hover/', quote: '/quotes/' } });

describe('XSS corpus', () => {
  test('should hold at least 80 vectors', () => {
    expect(VECTORS.length).toBeGreaterThanOrEqual(80);
    expect(new Set(VECTORS.map(([name]) => name)).size).toBe(VECTORS.length);
  });

  test.each(VECTORS)('should leave nothing executable from a %s', async (_name, vector) => {
    const result = await processArticle(`<h1>Title</h1><p>Before</p>${vector}<p>After</p>`, {
      keyword: 'xss',
      links,
      externalLinks: { target: '_blank' },
    });
    expect(findExecutableContent(result.html, { headingIds: result.headings.map((heading) => heading.slug) })).toEqual([]);
    expect(result.html).not.toMatch(/<script|javascript:|vbscript:|data:|srcdoc|onerror|onload|onclick/i);
  });
});

describe('the inspector', () => {
  // Guards the corpus test: an inspector that never complains would make it pass vacuously.
  test.each([
    ['<script>alert(1)</script>', '<script> element'],
    ['<img src=x onerror=alert(1)>', 'event handler onError on <img>'],
    ['<a href=" JaVa&#9;Script:alert(1)">x</a>', 'javascript: URL in href on <a>'],
    ['<img src="data:image/png;base64,AAAA">', 'data: URL in src on <img>'],
    ['<a href="vbscript:x">x</a>', 'vbscript: URL in href on <a>'],
    ['<p style="color:red">x</p>', 'attribute style on <p>'],
    ['<iframe srcdoc="x"></iframe>', 'attribute srcDoc on <iframe>'],
    ['<iframe src="https://evil.example/" sandbox="" loading="lazy"></iframe>', 'iframe from evil.example'],
    ['<svg></svg>', '<svg> element'],
    ['<meta http-equiv="refresh" content="0">', '<meta> element'],
    ['<base href="https://x.example/">', '<base> element'],
    ['<form action="https://x.example/"></form>', '<form> element'],
    ['<img id="x" src="a.png">', 'id "x" on <img> that is not a heading id'],
    ['<img name="cookie" src="a.png">', 'attribute name on <img>'],
    ['<!-- x -->', 'comment <!-- x -->'],
    ['<p><div>x</div></p>', 'output changes when parsed and serialised again (mutation risk)'],
  ])('should flag %s', (html, problem) => {
    expect(findExecutableContent(html)).toContain(problem);
  });
});
