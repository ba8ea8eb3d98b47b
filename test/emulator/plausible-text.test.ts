// Sample text a reader could take for a real draft: titles without doubled words, cities read from lower-case keywords, item and product counts by the spec, length by articleLength.
import { describe, expect, it } from 'vitest';
import { writeArticle } from '../../src/emulator/index.js';
import { cityOfKeyword, topicOfKeyword } from '../../src/emulator/placeholder-writer/keyword.js';
import { articleRequestSchema } from '../../src/contract/request-schema.js';

const titleOf = (input: Record<string, unknown>) => writeArticle(articleRequestSchema.parse(input)).title;

describe('emulator titles', () => {
  it('should not double a word the keyword and the template share', () => {
    const title = titleOf({ targetKeyword: 'baratza encore review', articleType: 'retail_single_product_review', productId: 'B007F183LK' });
    expect(title).not.toMatch(/\b(\w+)\s+\1\b/i);
    expect(title).toMatch(/Review/);
  });

  it('should read the city of a keyword typed in lower case, and leave phrases that are not places alone', () => {
    expect(cityOfKeyword('best coffee shops in berlin')).toBe('Berlin');
    expect(cityOfKeyword('brunch spots near new york')).toBe('New York');
    expect(topicOfKeyword('best coffee shops in berlin')).toBe('coffee shops');
    expect(cityOfKeyword('how to drink coffee in the morning')).toBeUndefined();
    expect(cityOfKeyword('brewing in a french press')).toBeUndefined();
    const title = titleOf({ targetKeyword: 'best coffee shops in berlin', articleType: 'local_places_roundup' });
    expect(title).toMatch(/Coffee Shops in Berlin$/);
    expect(title).not.toContain('in town');
  });
});

describe('emulator articles by type', () => {
  const write = (input: Record<string, unknown>) => writeArticle(articleRequestSchema.parse(input));

  it('should take a listicle\'s item count from its keyword, else numberOfItems when automatic length is off, else 10', () => {
    expect(write({ targetKeyword: '7 easy houseplants', articleType: 'listicle' }).title).toMatch(/^The 7 /);
    expect(write({ targetKeyword: 'easy houseplants', articleType: 'listicle', enableAutomaticLength: false, numberOfItems: 6 }).title).toMatch(/^The 6 /);
    expect(write({ targetKeyword: 'easy houseplants', articleType: 'listicle' }).title).toMatch(/^The 10 /);
  });

  it('should give a product roundup one product image per product', () => {
    const article = write({ targetKeyword: 'best burr grinders', articleType: 'retail_product_roundup', numRetailProducts: 4 });
    expect(article.images.length).toBeGreaterThanOrEqual(4);
    expect(article.title).toMatch(/^The 4 /);
  });

  it('should write longer articles for longer articleLength', () => {
    const words = (articleLength: string) => write({ targetKeyword: 'trail running shoes', articleLength }).words;
    expect(words('shorter')).toBeLessThan(words('short'));
    expect(words('short')).toBeLessThan(words('long'));
    expect(words('long')).toBeLessThan(words('longer'));
  });
});
