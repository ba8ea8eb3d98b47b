import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeRegExp } from '../../src/lang/escape.js';

describe('escapeHtml', () => {
  it('should escape the five characters that end text or an attribute value', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});

describe('escapeRegExp', () => {
  it('should make every special character match itself', () => {
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o';
    expect(new RegExp(`^${escapeRegExp(text)}$`).test(text)).toBe(true);
  });
});
