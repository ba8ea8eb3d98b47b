// A generated card's cache key and settings: equal inputs give the same file, any change in what is drawn gives another, and the options resolve as documented.
import { describe, expect, it } from 'vitest';
import { cardFileName, cardKey, cardLibraries, isCardOf, type CardInputs } from '../../src/cover/card-key.js';
import { CARD_HEIGHT, CARD_WIDTH, cardCanShow, cardColor, cardSettings, coverCardOptionSchema, DEFAULT_CARD_COLORS } from '../../src/cover/card-options.js';

const inputs: CardInputs = { title: 'Pour Over Coffee Ratio', siteName: 'brewnotes.example', color: '#1e3a8a', width: CARD_WIDTH, height: CARD_HEIGHT };
const versions = { satori: '0.63.2', resvg: '2.6.2', font: '@fontsource/inter@5.3.0' };

describe('the card key', () => {
  it('should be 16 hex characters, the same for the same inputs and libraries', () => {
    expect(cardKey(inputs, versions)).toMatch(/^[0-9a-f]{16}$/);
    expect(cardKey({ ...inputs }, { ...versions })).toBe(cardKey(inputs, versions));
  });

  it('should change with every input drawn and with every library version', () => {
    const key = cardKey(inputs, versions);
    const changed: CardInputs[] = [
      { ...inputs, title: 'Pour Over Coffee Ratio!' },
      { ...inputs, siteName: 'other.example' },
      { ...inputs, color: '#065f46' },
      { ...inputs, width: 1201 },
      { ...inputs, height: 631 },
    ];
    for (const other of changed) expect(cardKey(other, versions), JSON.stringify(other)).not.toBe(key);
    for (const name of Object.keys(versions) as (keyof typeof versions)[]) expect(cardKey(inputs, { ...versions, [name]: 'next' }), name).not.toBe(key);
  });

  it('should read the installed libraries without importing them', () => {
    const installed = cardLibraries();
    expect(installed.satori).toMatch(/^\d+\.\d+\.\d+/);
    expect(installed.resvg).toMatch(/^\d+\.\d+\.\d+/);
    expect(installed.font).toMatch(/^@fontsource\/inter@\d+\.\d+\.\d+/);
  });

  it("should name a card after its article and key, and tell an article's cards from another's", () => {
    const name = cardFileName('pour-over', '0123456789abcdef');
    expect(name).toBe('pour-over-0123456789abcdef.png');
    expect(isCardOf(name, 'pour-over')).toBe(true);
    expect(isCardOf('pour-over-ratio-0123456789abcdef.png', 'pour-over')).toBe(false);
    expect(isCardOf('pour-over-notes.png', 'pour-over')).toBe(false);
  });
});

describe('the card settings', () => {
  it("should take the site name from the option, else Astro's site host, else the package name", () => {
    expect(cardSettings({ siteName: 'Brew Notes' }, 'https://www.brew.example', 'brew-site')?.siteName).toBe('Brew Notes');
    expect(cardSettings(true, 'https://www.brew.example/blog/', 'brew-site')?.siteName).toBe('brew.example');
    expect(cardSettings(undefined, undefined, 'brew-site')?.siteName).toBe('brew-site');
    expect(cardSettings(undefined, undefined, undefined)?.siteName).toBe('');
  });

  it('should be off with false, and use the default colours, one colour or a list', () => {
    expect(cardSettings(false, 'https://brew.example', undefined)).toBeUndefined();
    expect(cardSettings(true, undefined, undefined)?.colors).toEqual([...DEFAULT_CARD_COLORS]);
    expect(cardSettings({ colors: '#ABC' }, undefined, undefined)?.colors).toEqual(['#abc']);
    expect(cardSettings({ colors: ['#111111', '#222222'] }, undefined, undefined)?.colors).toEqual(['#111111', '#222222']);
  });

  it("should give an article the same colour whatever the other articles", () => {
    const settings = cardSettings(true, undefined, undefined)!;
    expect(cardColor(settings, 'pour-over')).toBe(cardColor({ ...settings }, 'pour-over'));
    expect(DEFAULT_CARD_COLORS).toContain(cardColor(settings, 'pour-over'));
  });

  it('should draw only text the font can set: Latin, Cyrillic, Greek, Vietnamese, digits and punctuation', () => {
    for (const text of ['Pour Over: 1:16 — “why”', 'Kaffee für Anfänger', 'Кофе по-турецки', 'Ελληνικός καφές', 'Cà phê sữa đá', 'café.example']) expect(cardCanShow(text), text).toBe(true);
    for (const text of ['قهوة بالتقطير', 'コーヒーの淹れ方', 'कॉफ़ी', 'Coffee ☕']) expect(cardCanShow(text), text).toBe(false);
  });

  it('should refuse a colour that is not hex, and an empty site name', () => {
    expect(coverCardOptionSchema.safeParse({ colors: 'red' }).success).toBe(false);
    expect(coverCardOptionSchema.safeParse({ colors: [] }).success).toBe(false);
    expect(coverCardOptionSchema.safeParse({ siteName: '' }).success).toBe(false);
    expect(coverCardOptionSchema.safeParse({ size: 2 }).success).toBe(false);
  });
});
