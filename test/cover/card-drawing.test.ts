// Drawing a card: a PNG of exactly the documented size, readable text colour on any background, long titles cut at a word.
import { imageSize } from 'image-size';
import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { articleCover } from '../../src/cover/article-cover.js';
import { CardFiles } from '../../src/cover/card-files.js';
import { cardTitle, drawCard, textColorOn } from '../../src/cover/card-drawing.js';
import { CARD_HEIGHT, CARD_WIDTH, cardSettings } from '../../src/cover/card-options.js';

describe('drawing a card', () => {
  it('should make a PNG of 1200×630', async () => {
    const png = await drawCard({ title: 'Pour Over Coffee Ratio: 1:16, and When to Change It', siteName: 'brewnotes.example', color: '#1e3a8a', width: CARD_WIDTH, height: CARD_HEIGHT });
    expect(imageSize(png)).toMatchObject({ type: 'png', width: 1200, height: 630 });
  }, 30_000);

  it('should still give an article whose title the font cannot set a cover: the card without the title, alt the title', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aal-cover-'));
    try {
      const cards = new CardFiles({ settings: cardSettings(undefined, 'https://qahwa.example', undefined)!, cacheDir: join(dir, 'cache'), publicDir: join(dir, 'public'), publicPath: '/_articles/' });
      const { cover, drawn } = await articleCover({ slug: 'ar/qahwa', title: 'قهوة بالتقطير', image: null }, cards);
      expect(drawn).toBe(true);
      expect(cover).toMatchObject({ alt: 'قهوة بالتقطير', width: 1200, height: 630, generated: true });
      const file = join(dir, 'public', cover!.src.slice('/_articles/'.length));
      expect(imageSize(await readFile(file))).toMatchObject({ type: 'png', width: 1200, height: 630 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('should write white on a dark colour and near-black on a light one', () => {
    expect(textColorOn('#1e3a8a')).toBe('#ffffff');
    expect(textColorOn('#fde68a')).toBe('#111827');
    expect(textColorOn('#fff')).toBe('#111827');
  });

  it('should cut a long title at a word, with an ellipsis', () => {
    const long = 'The complete guide to pour over coffee at home: ratios, grind sizes, water temperature, bloom time, kettles and every dripper compared';
    const shown = cardTitle(long);
    expect(shown.length).toBeLessThanOrEqual(111);
    expect(shown.endsWith('…')).toBe(true);
    expect(long.startsWith(shown.slice(0, -1))).toBe(true);
    expect(cardTitle('  Short   title ')).toBe('Short title');
  });
});
