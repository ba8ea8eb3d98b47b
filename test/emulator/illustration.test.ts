// The emulator's images: flat illustrations (sky, sun, hills) at the exact pixel size asked for, distinct per seed, the same every time.
import { imageSize } from 'image-size';
import { describe, expect, it } from 'vitest';
import { renderPng } from '../../src/emulator/png-image.js';

describe('renderPng', () => {
  it('should draw at the exact size asked for, the same image for the same seed and another for another', () => {
    for (const [width, height] of [[1536, 1024], [1008, 1792], [600, 600]] as const) {
      expect(imageSize(renderPng(width, height, 'a'))).toMatchObject({ width, height, type: 'png' });
    }
    expect(renderPng(300, 200, 'a')).toEqual(renderPng(300, 200, 'a'));
    expect(renderPng(300, 200, 'a')).not.toEqual(renderPng(300, 200, 'b'));
  });

  it('should paint a picture of seven flat colours (four sky bands, a sun, two hills), not stripes', () => {
    const png = renderPng(300, 200, 'pour over coffee');
    const plte = png.indexOf(Buffer.from('PLTE'));
    expect(png.readUInt32BE(plte - 4)).toBe(7 * 3);
  });
});
