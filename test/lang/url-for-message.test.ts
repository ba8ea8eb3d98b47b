import { describe, expect, it } from 'vitest';
import { urlForMessage } from '../../src/lang/url-for-message.js';

describe('urlForMessage', () => {
  it('should keep scheme, host, port and path of an http(s) URL, and mark a dropped query', () => {
    expect(urlForMessage('https://cdn.example/img/a.png?sig=abc#top')).toBe('https://cdn.example/img/a.png?…');
    expect(urlForMessage('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080/v1');
  });

  it.each([
    ['https://user:s3cret@example.com/v1?key=s3cret', 'https://example.com/v1?…'],
    ['user:s3cret@localhost:8080/v1', 'localhost:8080/v1'],
    ['localhost:8080/v1?key=s3cret', 'localhost:8080/v1?…'],
    ['//user:s3cret@host/x', '//host/x'],
    ['mailto:user:s3cret@host', 'host'],
    ['http://user:s3cret@[bad/x', 'http://[bad/x'],
    ['ws://user:s3cret@host/socket#s3cret', 'ws://host/socket'],
  ])('should never show a user name, password, query or fragment: %s', (url, shown) => {
    expect(urlForMessage(url)).toBe(shown);
    expect(urlForMessage(url)).not.toContain('s3cret');
  });
});
