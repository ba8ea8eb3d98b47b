// The loader's inline `articles` option: the same rules as a file, with an origin label where the file name would be.
import { describe, expect, it } from 'vitest';
import { ManifestError, resolveInlineManifest } from '../../src/manifest/index.js';

const origin = 'astro content config (articles option)';

function refusal(run: () => unknown): ManifestError {
  try {
    run();
  } catch (error) {
    if (error instanceof ManifestError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('resolveInlineManifest', () => {
  it('should resolve bare keywords and keyword objects, defaults applied, with the origin as source', () => {
    const manifest = resolveInlineManifest(
      { defaults: { articleType: 'listicle', enableAutomaticLength: false, numberOfItems: 5 }, articles: ['10 best hikes', { keyword: 'packing list', slug: 'packing', numberOfItems: 12 }] },
      origin,
    );
    expect(manifest.file).toBe(origin);
    expect(manifest.specs.map((spec) => [spec.index, spec.slug, spec.request.articleType === 'listicle' && spec.request.numberOfItems])).toEqual([
      [0, '10-best-hikes', 5],
      [1, 'packing', 12],
    ]);
    expect(manifest.specs[0]?.source).toEqual({ file: origin });
  });

  it('should work without defaults', () => {
    expect(resolveInlineManifest({ articles: ['best running shoes'] }, origin).specs[0]?.request.articleType).toBe('blog_post');
  });

  it('should treat an undefined parameter as not given, as JavaScript code expects', () => {
    const [spec] = resolveInlineManifest({ articles: [{ keyword: 'best running shoes', title: undefined }] }, origin).specs;
    expect(spec?.request).not.toHaveProperty('title');
  });

  it('should name the origin where a file name would be, without a line', () => {
    const error = refusal(() => resolveInlineManifest({ articles: ['a', { keyword: 'b', tile: 'B' }] }, origin));
    expect(error.message).toContain(`${origin} articles[1] "b" → tile: is not a request parameter; did you mean "title"?`);
    expect(error.problems[0]).toMatchObject({ file: origin, index: 1, keyword: 'b', field: 'tile' });
    expect(error.problems[0]).not.toHaveProperty('line');
  });

  it('should refuse `articles` that is not an array', () => {
    const error = refusal(() => resolveInlineManifest({ articles: 'best running shoes' as never }, origin));
    expect(error.message).toContain('articles: must be a list, not the text "best running shoes"');
  });

  it('should refuse input that is not an object', () => {
    const error = refusal(() => resolveInlineManifest(null as never, origin));
    expect(error.problems).toHaveLength(1);
    expect(error.message).toContain(origin);
  });

  it('should ask to quote a numeric keyword in plain words, without YAML syntax', () => {
    const error = refusal(() => resolveInlineManifest({ articles: [404 as never] }, origin));
    expect(error.message).toContain('articles[0] "404" → keyword: must be text, not the number 404; quote it: "404"');
  });

  it('should refuse a value that is not data, such as a function', () => {
    const error = refusal(() => resolveInlineManifest({ articles: [{ keyword: 'best running shoes', title: (() => 'x') as never }] }, origin));
    expect(error.message).toContain('→ title: must be text, not a function');
  });
});
