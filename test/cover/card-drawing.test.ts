// Drawing a card: a PNG of exactly the documented size, readable text colour on any background, long titles cut at a word.
import { imageSize } from 'image-size';
import { describe, expect, it } from 'vitest';
import { cardTitle, drawCard, textColorOn } from '../../src/cover/card-drawing.js';
import { CARD_HEIGHT, CARD_WIDTH } from '../../src/cover/card-options.js';

describe('drawing a card', () => {
  it('should make a PNG of 1200×630', async () => {
    const png = await drawCard({ title: 'Pour Over Coffee Ratio: 1:16, and When to Change It', siteName: 'brewnotes.example', color: '#1e3a8a', width: CARD_WIDTH, height: CARD_HEIGHT });
    expect(imageSize(png)).toMatchObject({ type: 'png', width: 1200, height: 630 });
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
