// A generated card's cache key and settings: equal inputs give the same file, any change in what is drawn gives another, and the options resolve as documented.
import { describe, expect, it } from 'vitest';
import { cardFileName, cardKey, cardLibraries, isCardOf, textFonts, type CardInputs } from '../../src/cover/card-key.js';
import { CardFonts, FONT_PACKAGES, locateInstalled } from '../../src/cover/card-fonts.js';
import { CARD_HEIGHT, CARD_WIDTH, cardColor, cardSettings, coverCardOptionSchema, DEFAULT_CARD_COLORS } from '../../src/cover/card-options.js';

const inputs: CardInputs = { title: 'Pour Over Coffee Ratio', siteName: 'brewnotes.example', locale: 'en', color: '#1e3a8a', width: CARD_WIDTH, height: CARD_HEIGHT };
const versions = { canvas: '1.1.1', fonts: { '@fontsource-variable/inter': '5.3.0', '@fontsource-variable/noto-sans-jp': 'missing' } };

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
      { ...inputs, locale: 'de' },
      { ...inputs, color: '#065f46' },
      { ...inputs, width: 1201 },
      { ...inputs, height: 631 },
    ];
    for (const other of changed) expect(cardKey(other, versions), JSON.stringify(other)).not.toBe(key);
    expect(cardKey(inputs, { ...versions, canvas: '1.2.0' })).not.toBe(key);
    // A font installed since: every card is drawn again (one that lacked it now has its letters).
    expect(cardKey(inputs, { ...versions, fonts: { ...versions.fonts, '@fontsource-variable/noto-sans-jp': '5.3.1' } })).not.toBe(key);
  });

  it('should read the installed libraries without importing them, a font not installed as missing', () => {
    const installed = cardLibraries();
    expect(installed.canvas).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(installed.fonts)).toEqual(FONT_PACKAGES.map((pkg) => pkg.name));
    for (const version of Object.values(installed.fonts)) expect(version).toMatch(/^\d+\.\d+\.\d+/);
    const withoutKorean = new CardFonts((pkg) => (pkg.name.endsWith('noto-sans-kr') ? undefined : locateInstalled(pkg)));
    expect(cardLibraries(withoutKorean).fonts['@fontsource-variable/noto-sans-kr']).toBe('missing');
  });

  it('should hold the fonts a card is set in and those it lacks, not the others', () => {
    const all = new CardFonts();
    const withoutJapanese = new CardFonts((pkg) => (pkg.name.endsWith('noto-sans-jp') ? undefined : locateInstalled(pkg)));
    const latin = textFonts(all.text('Pour Over Coffee'), all.text('brewnotes.example'));
    expect(Object.keys(latin)).toEqual(['@fontsource-variable/inter']);
    // A Latin card made where the Japanese font is installed is still good where it is not.
    expect(textFonts(withoutJapanese.text('Pour Over Coffee'), withoutJapanese.text('brewnotes.example'))).toEqual(latin);
    // A Japanese card made without it is not: another key once it is installed.
    const before = textFonts(withoutJapanese.text('コーヒー入門', 'ja'));
    expect(before).toMatchObject({ '@fontsource-variable/noto-sans-jp': 'missing' });
    const after = textFonts(all.text('コーヒー入門', 'ja'));
    expect(after['@fontsource-variable/noto-sans-jp']).toMatch(/^\d+\.\d+\.\d+/);
    expect(cardKey(inputs, { canvas: '1.1.1', fonts: after })).not.toBe(cardKey(inputs, { canvas: '1.1.1', fonts: before }));
  });

  it('should give each set of fonts and lacks its own part, however many cards share one', () => {
    const text = (fonts: string[], missing: { package?: string; script: string }[] = []) => ({ shown: 'x', faces: [], fonts, missing }) as unknown as ReturnType<CardFonts['text']>;
    const inter = text(['@fontsource-variable/inter@5.3.0']);
    const jp = text(['@fontsource-variable/noto-sans-jp@5.3.1']);
    const lacking = text([], [{ package: '@fontsource-variable/noto-sans-jp', script: 'Han' }]);
    expect(textFonts(inter, jp)).toEqual({ '@fontsource-variable/inter': '5.3.0', '@fontsource-variable/noto-sans-jp': '5.3.1' });
    // The same set again (the second card of a site), then sets that differ only in a lack, in a version, or in their order.
    expect(textFonts(inter, jp)).toEqual({ '@fontsource-variable/inter': '5.3.0', '@fontsource-variable/noto-sans-jp': '5.3.1' });
    expect(textFonts(inter, lacking)).toEqual({ '@fontsource-variable/inter': '5.3.0', '@fontsource-variable/noto-sans-jp': 'missing' });
    expect(textFonts(inter, text(['@fontsource-variable/noto-sans-jp@5.3.2']))).toEqual({ '@fontsource-variable/inter': '5.3.0', '@fontsource-variable/noto-sans-jp': '5.3.2' });
    // A later text's word wins: set in the font by one text and lacking it in the next is "missing", the other way round is set.
    expect(textFonts(jp, lacking)['@fontsource-variable/noto-sans-jp']).toBe('missing');
    expect(textFonts(lacking, jp)['@fontsource-variable/noto-sans-jp']).toBe('5.3.1');
    expect(textFonts(text([], [{ script: 'Thaana' }]))).toEqual({ Thaana: 'missing' });
    // Set in the same fonts, one lacking another script's: two parts.
    expect(textFonts(inter)).toEqual({ '@fontsource-variable/inter': '5.3.0' });
    expect(textFonts(text(['@fontsource-variable/inter@5.3.0'], [{ package: '@fontsource-variable/noto-sans-jp', script: 'Han' }]))).toEqual({ '@fontsource-variable/inter': '5.3.0', '@fontsource-variable/noto-sans-jp': 'missing' });
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

  it('should set each letter in the font of its script, Latin digits and punctuation in Inter, Han by the locale', () => {
    const fonts = new CardFonts();
    const packages = (text: string, locale?: string) => fonts.text(text, locale).fonts.map((font) => font.replace(/@[^@]+$/, ''));
    expect(packages('Pour Over: 1:16 — “why”')).toEqual(['@fontsource-variable/inter']);
    expect(packages('Кофе по-турецки, Ελληνικός καφές, Cà phê sữa đá')).toEqual(['@fontsource-variable/inter']);
    expect(packages('2024: قهوة بالتقطير')).toEqual(['@fontsource-variable/inter', '@fontsource-variable/noto-sans-arabic']);
    expect(packages('手冲咖啡', 'zh-CN')).toEqual(['@fontsource-variable/noto-sans-sc']);
    expect(packages('手沖咖啡', 'zh-TW')).toEqual(['@fontsource-variable/noto-sans-tc']);
    expect(packages('珈琲の淹れ方')).toEqual(['@fontsource-variable/noto-sans-jp']);
    expect(packages('커피', 'ko')).toEqual(['@fontsource-variable/noto-sans-kr']);
    expect(packages('Coffee ☕')).toEqual(['@fontsource-variable/inter', '@fontsource/noto-emoji']);
  });

  it('should set a text of printable ASCII as its letters looked up one by one are set', () => {
    const fonts = new CardFonts();
    // `é` sends the second text letter by letter (Inter's latin subset has it too); the first takes the ASCII path.
    for (const text of ['Pour Over: 1/16 ratio (best) #1!', '  spaced   out  ', '~{}|`^_@[]\\']) {
      const ascii = fonts.text(text);
      const looked = fonts.text(`${text} é`);
      expect(ascii).toEqual({ ...looked, shown: looked.shown.replace(/ ?é$/, '') });
      expect(ascii.fonts.map((font) => font.replace(/@[^@]+$/, ''))).toEqual(['@fontsource-variable/inter']);
    }
    expect(fonts.text('   ')).toEqual({ shown: '', faces: [], fonts: [], missing: [] });
    // Without Inter the letters are not all in one font's subset: each is looked up, and the ones no font has are left out.
    const withoutInter = new CardFonts((pkg) => (pkg.name === '@fontsource-variable/inter' ? undefined : locateInstalled(pkg)));
    expect(withoutInter.text('Coffee 101').missing).toEqual([{ script: 'Latin, Cyrillic, Greek and Vietnamese', package: '@fontsource-variable/inter', example: 'C' }]);
  });

  it('should leave out a letter no installed font has, whole graphemes at a time, and name the font to install', () => {
    const fonts = new CardFonts((pkg) => (pkg.install === 'optional' ? undefined : locateInstalled(pkg)));
    expect(fonts.text('Family 👨‍👩‍👧 time')).toMatchObject({ shown: 'Family time', missing: [{ script: 'emoji', package: '@fontsource/noto-emoji', example: '👨' }] });
    expect(fonts.text('コーヒー、入門', 'ja').missing).toEqual([{ script: 'Japanese', package: '@fontsource-variable/noto-sans-jp', example: 'コ' }]);
    expect(fonts.text('தமிழ் coffee').missing).toEqual([{ script: 'the script of U+0BA4', package: undefined, example: 'த' }]);
    expect(fonts.text('தமிழ் coffee').shown).toBe('coffee');
  });

  it('should refuse a colour that is not hex, and an empty site name', () => {
    expect(coverCardOptionSchema.safeParse({ colors: 'red' }).success).toBe(false);
    expect(coverCardOptionSchema.safeParse({ colors: [] }).success).toBe(false);
    expect(coverCardOptionSchema.safeParse({ siteName: '' }).success).toBe(false);
    expect(coverCardOptionSchema.safeParse({ size: 2 }).success).toBe(false);
  });
});
