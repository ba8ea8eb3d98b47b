// A finished article's HTML as the emulator keeps it: compressed, read back as the same strings, and written to the state file as plain strings.
import { describe, expect, it } from 'vitest';
import { KeptOutput } from '../../src/emulator/article-store.js';

describe('KeptOutput', () => {
  it('should give back the HTML and the polished HTML it was given, in any script', () => {
    const html = '<h1>Café — 咖啡 — قهوة 🌍</h1><p>' + 'word '.repeat(2_000) + '</p>';
    const kept = new KeptOutput(html, '<p>polished</p>');
    expect(kept.html).toBe(html);
    expect(kept.polishedHtml).toBe('<p>polished</p>');
    expect(new KeptOutput(html, null).polishedHtml).toBeNull();
  });

  it('should be written to the state file as plain strings, read back by a restarted emulator as it reads any record', () => {
    const record = { id: 'a1', output: new KeptOutput('<p>one</p>', null) };
    expect(JSON.parse(JSON.stringify(record))).toEqual({ id: 'a1', output: { html: '<p>one</p>', polishedHtml: null } });
  });
});
