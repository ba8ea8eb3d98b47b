// Sample titles a reader could take for a real draft: no doubled words, a city read from a keyword typed in lower case, no "in town".
import { describe, expect, it } from 'vitest';
import { writeArticle } from '../../src/emulator/index.js';
import { cityOfKeyword, topicOfKeyword } from '../../src/emulator/writer/keyword.js';
import { articleRequestSchema } from '../../src/spec/request-schema.js';

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
