// Drawing a card, read back as pixels: every script of the locale table has ink in the title area, different titles give different ink (boxes of
// missing glyphs would not), right-to-left titles end at the right margin, emoji and 5,000-character titles make proper cards, and a title whose font
// is missing is left out (never boxes, never a blank title area), said, and drawn again once the font is there. The file is an indexed PNG of exactly
// the drawn pixels (RGBA past 256 colours).
import { imageSize } from 'image-size';
import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { articleCover } from '../../src/cover/article-cover.js';
import { CardFiles } from '../../src/cover/card-files.js';
import { CardFonts, locateInstalled, type FontPackage } from '../../src/cover/card-fonts.js';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { cardTitle, drawCard, encodePng, textColorOn } from '../../src/cover/card-drawing.js';
import { CARD_HEIGHT, CARD_WIDTH, cardSettings } from '../../src/cover/card-options.js';
import { inkDifference, inkOf, MARGIN, SITE_NAME_AREA, TITLE_AREA } from './card-pixels.js';

const SITE = 'brewnotes.example';

/** A title per script, and another of the same length and word shape: boxes of missing glyphs would draw both alike. */
const SCRIPTS: { script: string; locale: string; title: string; other: string; dir: 'ltr' | 'rtl' }[] = [
  { script: 'Latin', locale: 'en', title: 'Coffee at home', other: 'Grinds at dawn', dir: 'ltr' },
  { script: 'Latin Extended', locale: 'pl', title: 'Kawa źródlana', other: 'Żółw ściągnął', dir: 'ltr' },
  { script: 'Vietnamese', locale: 'vi', title: 'Cà phê sữa đá', other: 'Bò bía chả cá', dir: 'ltr' },
  { script: 'Cyrillic', locale: 'ru', title: 'Кофе дома', other: 'Вино сада', dir: 'ltr' },
  { script: 'Greek', locale: 'el', title: 'Καλός καφές', other: 'Λευκό κρασί', dir: 'ltr' },
  { script: 'Arabic', locale: 'ar', title: 'قهوة بالتقطير', other: 'شاهي بالنعناع', dir: 'rtl' },
  { script: 'Persian', locale: 'fa', title: 'قهوه ترک', other: 'چایی سرد', dir: 'rtl' },
  { script: 'Urdu', locale: 'ur', title: 'کافی کیسے', other: 'چائے پینا', dir: 'rtl' },
  { script: 'Hebrew', locale: 'he', title: 'קפה שחור', other: 'יין אדום', dir: 'rtl' },
  { script: 'Devanagari', locale: 'hi', title: 'गरम चाय', other: 'चाय गरम', dir: 'ltr' },
  { script: 'Bengali', locale: 'bn', title: 'গরম কফি', other: 'কফি গরম', dir: 'ltr' },
  { script: 'Thai', locale: 'th', title: 'กาแฟร้อน', other: 'ชาเย็นนม', dir: 'ltr' },
  { script: 'Japanese', locale: 'ja', title: 'コーヒー入門', other: 'お茶の淹れ方', dir: 'ltr' },
  { script: 'Simplified Chinese', locale: 'zh-CN', title: '手冲咖啡入门', other: '冷萃咖啡做法', dir: 'ltr' },
  { script: 'Traditional Chinese', locale: 'zh-TW', title: '手沖咖啡入門', other: '冷萃咖啡做法', dir: 'ltr' },
  { script: 'Korean', locale: 'ko', title: '커피 내리기', other: '녹차 우리기', dir: 'ltr' },
];

const fonts = new CardFonts();

/** The fonts less the packages named: a site that has not installed them. */
const without = (...names: string[]) => new CardFonts((pkg: FontPackage) => (names.some((name) => pkg.name.endsWith(name)) ? undefined : locateInstalled(pkg)));

function draw(title: string, locale: string, with_: CardFonts = fonts): Promise<Uint8Array> {
  return drawCard({ title: with_.text(title, locale), siteName: with_.text(SITE), fallback: with_.text('article'), locale, color: '#1e3a8a', width: CARD_WIDTH, height: CARD_HEIGHT });
}

/** The title's ink, checked to start at its direction's margin and to stay in the title area; the site name's ink below it. */
async function checkedCard(png: Uint8Array, dir: 'ltr' | 'rtl', label: string, siteNameLine = true) {
  const title = await inkOf(png, TITLE_AREA);
  expect(title.width, label).toBe(CARD_WIDTH);
  expect(title.height, label).toBe(CARD_HEIGHT);
  expect(title.pixels, `${label}: ink in the title area`).toBeGreaterThan(800);
  if (dir === 'rtl') expect(CARD_WIDTH - MARGIN - title.right, `${label}: ends at the right margin`).toBeLessThanOrEqual(8);
  else expect(title.left - MARGIN, `${label}: starts at the left margin`).toBeLessThanOrEqual(14);
  expect(title.left, `${label}: inside the margins`).toBeGreaterThanOrEqual(MARGIN - 6);
  expect(title.right, `${label}: inside the margins`).toBeLessThanOrEqual(CARD_WIDTH - MARGIN + 6);
  const siteName = (await inkOf(png, SITE_NAME_AREA)).pixels;
  if (siteNameLine) expect(siteName, `${label}: the site name`).toBeGreaterThan(200);
  else expect(siteName, `${label}: the site name, moved up to the title's place`).toBe(0);
  return title;
}

describe('a card in every script', () => {
  it.each(SCRIPTS)('should draw a $script title with ink, different ink for a different title, from its margin', async ({ script, locale, title, other, dir }) => {
    expect([...other].length, 'the pair has the same length').toBe([...title].length);
    expect(fonts.text(title, locale)).toMatchObject({ shown: title, missing: [] });
    const ink = await checkedCard(await draw(title, locale), dir, script);
    const otherInk = await checkedCard(await draw(other, locale), dir, `${script} (other)`);
    expect(inkDifference(ink, otherInk), script).toBeGreaterThan(0.3);
    if (dir === 'rtl') expect(ink.left, `${script}: a short title does not reach the left half`).toBeGreaterThan(CARD_WIDTH / 2);
  }, 30_000);

  it("should draw a title whose locale Intl does not take (a manifest's own locale:)", async () => {
    await checkedCard(await draw('Coffee at home', 'not a tag!'), 'ltr', 'unknown locale');
  }, 30_000);

  it('should draw a mixed title (an English phrase with an Arabic keyword) from the left, with both scripts', async () => {
    const mixed = 'Everything You Need to Know About قهوة بالتقطير';
    const text = fonts.text(mixed, 'en');
    expect(text).toMatchObject({ shown: mixed, missing: [] });
    expect(text.fonts.map((font) => font.split('@').slice(0, -1).join('@'))).toEqual(['@fontsource-variable/inter', '@fontsource-variable/noto-sans-arabic']);
    const ink = await checkedCard(await draw(mixed, 'en'), 'ltr', 'mixed');
    const english = await inkOf(await draw('Everything You Need to Know About', 'en'), TITLE_AREA);
    // The Arabic words are drawn too: more ink than the English phrase alone.
    expect(ink.pixels).toBeGreaterThan(english.pixels * 1.2);
  }, 30_000);

  it('should draw emoji, and a title made only of emoji', async () => {
    expect(fonts.text('Coffee ☕ at home')).toMatchObject({ shown: 'Coffee ☕ at home', missing: [] });
    const withEmoji = await checkedCard(await draw('Coffee ☕ at home', 'en'), 'ltr', 'emoji');
    const withoutEmoji = await inkOf(await draw('Coffee at home', 'en'), TITLE_AREA);
    expect(withEmoji.pixels).toBeGreaterThan(withoutEmoji.pixels);
    await checkedCard(await draw('☕🍰🥐', 'en'), 'ltr', 'only emoji');
    expect(inkDifference(await inkOf(await draw('☕🍰🥐', 'en'), TITLE_AREA), await inkOf(await draw('🥐🍰☕', 'en'), TITLE_AREA))).toBeGreaterThan(0.3);
  }, 30_000);

  it.each(SCRIPTS)('should make a proper card of a 5,000-character $script title: cut, in the title area, above the site name', async ({ script, locale, title, dir }) => {
    const long = `${title} `.repeat(Math.ceil(5000 / (title.length + 1))).slice(0, 5000);
    const png = await draw(long, locale);
    const ink = await checkedCard(png, dir, script);
    expect(ink.bottom, `${script}: four lines at most`).toBeLessThan(TITLE_AREA.bottom - 10);
  }, 30_000);
});

describe('a card without the font it needs', () => {
  it('should leave out what no font has, never draw boxes, and say which font is missing', async () => {
    const noEmoji = without('noto-emoji');
    expect(noEmoji.text('Coffee ☕ at home')).toMatchObject({ shown: 'Coffee at home', missing: [{ script: 'emoji', package: '@fontsource/noto-emoji', example: '☕' }] });
    const left = await inkOf(await draw('Coffee ☕ at home', 'en', noEmoji), TITLE_AREA);
    expect(inkDifference(left, await inkOf(await draw('Coffee at home', 'en'), TITLE_AREA))).toBe(0);
    const noJapanese = without('noto-sans-jp', 'noto-sans-sc', 'noto-sans-tc', 'noto-sans-kr');
    expect(noJapanese.text('Everything about コーヒー', 'ja')).toMatchObject({ shown: 'Everything about', missing: [{ script: 'Japanese', package: '@fontsource-variable/noto-sans-jp' }] });
    expect(noJapanese.text('手冲咖啡', 'zh-CN').missing).toEqual([expect.objectContaining({ script: 'Simplified Chinese', package: '@fontsource-variable/noto-sans-sc' })]);
  });

  it('should fill the title area with the site name when none of the title can be drawn', async () => {
    const noEmoji = without('noto-emoji');
    const onlyEmoji = await checkedCard(await draw('☕☕☕', 'en', noEmoji), 'ltr', 'only emoji, no emoji font', false);
    const siteName = await inkOf(await draw(SITE, 'en'), TITLE_AREA);
    expect(inkDifference(onlyEmoji, siteName)).toBe(0);
  }, 30_000);

  it('should draw the card again once the font is installed: another key, another file, the title drawn', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aal-cover-'));
    try {
      const options = { settings: cardSettings(undefined, `https://${SITE}`, undefined)!, cacheDir: join(dir, 'cache'), publicDir: join(dir, 'public'), publicPath: '/_articles/' };
      const article = { slug: 'ar/qahwa', title: 'قهوة بالتقطير', image: null, locale: 'ar' };
      const before = await articleCover(article, new CardFiles({ ...options, fonts: without('noto-sans-arabic') }));
      expect(before).toMatchObject({ drawn: true, missing: [{ script: 'Arabic (Arabic, Persian, Urdu)', package: '@fontsource-variable/noto-sans-arabic' }] });
      expect(before.cover).toMatchObject({ alt: 'قهوة بالتقطير', width: 1200, height: 630, generated: true });
      const file = (src: string) => join(dir, 'public', src.slice('/_articles/'.length));
      // No Arabic font: the site name in the title's place, from the left margin.
      await checkedCard(await readFile(file(before.cover!.src)), 'ltr', 'without the Arabic font', false);
      // The same build again: the same card from the cache, still said.
      expect(await articleCover(article, new CardFiles({ ...options, fonts: without('noto-sans-arabic') }))).toMatchObject({ drawn: false, missing: [{ package: '@fontsource-variable/noto-sans-arabic' }] });
      const after = await articleCover(article, new CardFiles(options));
      expect(after).toMatchObject({ drawn: true, missing: [] });
      expect(after.cover!.src).not.toBe(before.cover!.src);
      await checkedCard(await readFile(file(after.cover!.src)), 'rtl', 'with the Arabic font');
      expect(imageSize(await readFile(file(after.cover!.src)))).toMatchObject({ type: 'png', width: 1200, height: 630 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
  it('should take a card from the cache once its folder is listed, nested or not, and copy one the public folder lost', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aal-cover-'));
    try {
      const options = { settings: cardSettings(undefined, `https://${SITE}`, undefined)!, cacheDir: join(dir, 'cache'), publicDir: join(dir, 'public'), publicPath: '/_articles/' };
      const articles = [
        { slug: 'de/kaffee', title: 'Kaffee', image: null, locale: 'de' },
        { slug: 'tea', title: 'Tea', image: null },
      ];
      const cards = new CardFiles(options);
      const first = await Promise.all(articles.map((article) => articleCover(article, cards)));
      expect(first.map((card) => card.drawn)).toEqual([true, true]);
      // The same CardFiles again: its listings hold the cards it drew.
      const again = await Promise.all(articles.map((article) => articleCover(article, cards)));
      expect(again.map((card) => [card.drawn, card.cover!.src])).toEqual(first.map((card) => [false, card.cover!.src]));
      expect(first[0]!.cover!.src).toMatch(/^\/_articles\/covers\/de\/kaffee-[0-9a-f]{16}\.png$/);
      const published = (src: string) => join(dir, 'public', src.slice('/_articles/'.length));
      await rm(published(first[0]!.cover!.src));
      const later = await articleCover(articles[0]!, new CardFiles(options));
      expect(later).toMatchObject({ drawn: false, cover: { src: first[0]!.cover!.src } });
      expect(imageSize(await readFile(published(later.cover!.src)))).toMatchObject({ type: 'png', width: 1200, height: 630 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

/** A PNG's colour type (IHDR byte 25: 3 indexed, 6 RGBA) and its pixels as RGBA, decoded by Skia as a browser would. */
async function decoded(png: Uint8Array): Promise<{ colorType: number; width: number; height: number; rgba: Uint8ClampedArray }> {
  const image = await loadImage(Buffer.from(png));
  const ctx = createCanvas(image.width, image.height).getContext('2d');
  ctx.drawImage(image, 0, 0);
  return { colorType: png[25]!, width: image.width, height: image.height, rgba: ctx.getImageData(0, 0, image.width, image.height).data };
}

describe('the card file', () => {
  it('should write a card as an indexed PNG of exactly its pixels, well under half the RGBA file', async () => {
    // Antialiased text in two sizes and a translucent line on a colour, as a card draws them.
    const surface = createCanvas(CARD_WIDTH, CARD_HEIGHT);
    const ctx = surface.getContext('2d');
    ctx.fillStyle = '#7c2d12';
    ctx.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 72px sans-serif';
    ctx.fillText('Pour over at home, step by step', 72, 160);
    ctx.globalAlpha = 0.85;
    ctx.font = '32px sans-serif';
    ctx.fillText(SITE, 72, 560);
    const rgba = ctx.getImageData(0, 0, CARD_WIDTH, CARD_HEIGHT).data;
    const rgbaPng = await surface.encode('png');
    const png = await encodePng(rgba, CARD_WIDTH, CARD_HEIGHT, () => Promise.reject(new Error('a card of a few colours is not written as RGBA')));
    const back = await decoded(png);
    expect(back).toMatchObject({ colorType: 3, width: CARD_WIDTH, height: CARD_HEIGHT });
    expect(Buffer.from(back.rgba).equals(Buffer.from(rgba)), 'the same pixels, byte for byte').toBe(true);
    expect((await decoded(rgbaPng)).colorType).toBe(6);
    expect(png.length).toBeLessThan(rgbaPng.length / 2);
  });

  it('should take pixels from a view that does not start on a 4-byte boundary', async () => {
    const bytes = new Uint8Array(1 + 4 * 8);
    const rgba = bytes.subarray(1);
    for (let pixel = 0; pixel < 8; pixel++) rgba.set(pixel % 3 === 0 ? [255, 255, 255, 255] : [30, 58, 138, 255], pixel * 4);
    const back = await decoded(await encodePng(rgba, 4, 2, () => Promise.reject(new Error('two colours are not written as RGBA'))));
    expect(back).toMatchObject({ colorType: 3, width: 4, height: 2 });
    expect(Buffer.from(back.rgba).equals(Buffer.from(rgba))).toBe(true);
  });

  it('should keep the RGBA file for an image with a translucent pixel', async () => {
    // Two colours, one half transparent: fast-png 8.0 would write its alpha for the opaque one (its tRNS chunk skips opaque entries).
    const rgba = new Uint8Array([10, 20, 30, 255, 200, 100, 50, 128]);
    const rgbaPng = new Uint8Array([1, 2, 3]);
    expect(await encodePng(rgba, 2, 1, () => Promise.resolve(rgbaPng))).toBe(rgbaPng);
  });

  it('should keep the RGBA file for an image of more than 256 colours', async () => {
    const rgba = new Uint8ClampedArray(300 * 4).map((_, i) => (i % 4 === 3 ? 255 : i % 4 === 0 ? Math.floor(i / 4) % 256 : Math.floor(i / 4 / 256)));
    const rgbaPng = new Uint8Array([1, 2, 3]);
    expect(await encodePng(rgba, 300, 1, () => Promise.resolve(rgbaPng))).toBe(rgbaPng);
  });

  it.each(SCRIPTS.filter(({ script }) => ['Latin', 'Arabic', 'Japanese'].includes(script)))('should draw a $script card as an indexed PNG', async ({ title, locale }) => {
    const card = await decoded(await draw(title, locale));
    expect(card).toMatchObject({ colorType: 3, width: CARD_WIDTH, height: CARD_HEIGHT });
  }, 30_000);
});

describe('the card text', () => {
  it('should write white on a dark colour and near-black on a light one', () => {
    expect(textColorOn('#1e3a8a')).toBe('#ffffff');
    expect(textColorOn('#fde68a')).toBe('#111827');
    expect(textColorOn('#fff')).toBe('#111827');
  });

  it('should cut a long title at a word, with an ellipsis, and a title without spaces between graphemes', () => {
    const long = 'The complete guide to pour over coffee at home: ratios, grind sizes, water temperature, bloom time, kettles and every dripper compared';
    const shown = cardTitle(long);
    expect(shown.length).toBeLessThanOrEqual(111);
    expect(shown.endsWith('…')).toBe(true);
    expect(long.startsWith(shown.slice(0, -1))).toBe(true);
    expect(cardTitle('  Short   title ')).toBe('Short title');
    // 200 emoji (surrogate pairs): cut between them, never inside one.
    expect(cardTitle('☕🍰'.repeat(100))).toBe(`${'☕🍰'.repeat(55)}…`);
  });
});
