// A URL as a message may show it: where it points, never a user name, password, query or fragment (any of them may carry a secret).

/**
 * `https://user:pw@cdn.example/a.png?sig=…` → `https://cdn.example/a.png?…`: scheme, host, port
 * and path, with `?…` where a query was left out. Text that is not an http(s) URL (a mistyped
 * setting such as `user:pw@localhost:8080/v1`) loses the same parts by its shape.
 */
export function urlForMessage(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol === 'http:' || parsed?.protocol === 'https:') {
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search === '' ? '' : '?…'}`;
  }
  return byShape(url);
}

/** Everything from the first `?` or `#` left out, and in each `/`-separated part everything up to its last `@`. */
function byShape(text: string): string {
  const cut = text.search(/[?#]/);
  const kept = cut === -1 ? text : text.slice(0, cut);
  const marker = cut !== -1 && text[cut] === '?' ? '?…' : '';
  return kept.split('/').map((part) => part.slice(part.lastIndexOf('@') + 1)).join('/') + marker;
}
