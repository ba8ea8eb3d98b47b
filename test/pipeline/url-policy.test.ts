// URL rules: scheme normalisation, internal vs external, and the "same page" key with its fast path.

import { describe, expect, test } from 'vitest';
import { isExternalHref, isInternalHref, normalizeUrl, pageKey } from '../../src/pipeline/url-policy.js';

// The definition of the page key, with a full URL parse every time.
function parsedPageKey(href: string, origins: ReadonlySet<string>): string {
  const url = new URL(href, 'https://local.invalid');
  const origin = origins.has(url.origin) || url.origin === 'https://local.invalid' ? '' : url.origin;
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') || '/' : url.pathname;
  return origin + path + url.search;
}

const origins = new Set(['https://www.site.example']);

describe('pageKey', () => {
  test.each([
    '/a/', '/a', '/a//', '/', '/a/?x=1#f', '/a?', '/a#frag', '/a/b/../c/', '/a/./b', '/a%20b/', '/ä/', '/a\\b',
    'https://www.site.example/a/', 'HTTPS://WWW.SITE.EXAMPLE/a', 'https://www.site.example', 'https://www.site.example?x',
    'https://other.example/a/?q=1#x', 'http://other.example:80/a', 'https://other.example:8443/a', 'https://user@other.example/a',
    'https://bücher.example/a', '//other.example/a', 'relative/path', '../up', '?only=query', '#only-fragment',
  ])('should key %s as a full URL parse does', (href) => {
    expect(pageKey(href, origins)).toBe(parsedPageKey(href, origins));
  });

  test('should fold the site origin away so absolute and relative links to a page match', () => {
    expect(pageKey('https://www.site.example/guides/x/', origins)).toBe(pageKey('/guides/x', origins));
  });
});

describe('classification', () => {
  test('should call relative, fragment and site links internal', () => {
    for (const href of ['/a', 'a.html', '#x', '?q', 'https://www.site.example/a']) expect(isInternalHref(href, origins)).toBe(true);
  });

  test('should call other sites external, protocol-relative ones included, and mailto neither', () => {
    expect(isExternalHref('https://other.example/', origins)).toBe(true);
    expect(isExternalHref('//other.example/', origins)).toBe(true);
    expect(isExternalHref('mailto:a@b.example', origins)).toBe(false);
    expect(isInternalHref('mailto:a@b.example', origins)).toBe(false);
  });
});

describe('normalizeUrl', () => {
  test.each([
    [' \u0001JaVa\tScRiPt:alert(1) ', 'javascript:alert(1)'],
    ['HTTPS://Example.com/A', 'https://Example.com/A'],
    ['/path/Keeps:Case', '/path/Keeps:Case'],
    ['Mailto:x@y.example', 'mailto:x@y.example'],
  ])('should normalise %j to %j', (input, output) => {
    expect(normalizeUrl(input)).toBe(output);
  });
});
