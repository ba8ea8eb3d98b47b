// Good manifests in every format: entries, defaults merged under them, every article type, slugs, a BOM and CRLF lines.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { POLISH_SETTINGS_DEFAULTS } from '../../src/contract/request-schema.js';
import { loadManifest, type ArticleSpec } from '../../src/manifest/index.js';

const good = (name: string) => fileURLToPath(new URL(`../../fixtures/manifests/good/${name}`, import.meta.url));

function bySlug(specs: ArticleSpec[]): Record<string, ArticleSpec> {
  return Object.fromEntries(specs.map((spec) => [spec.slug, spec]));
}

describe('YAML manifests', () => {
  it('should read bare keywords and keyword mappings in order, with index, line and absolute file', async () => {
    const manifest = await loadManifest(path.relative(process.cwd(), good('basic.yaml')));
    expect(manifest.file).toBe(good('basic.yaml'));
    expect(manifest.specs.map((spec) => [spec.index, spec.keyword, spec.slug, spec.source.line])).toEqual([
      [0, 'best running shoes', 'best-running-shoes', 7],
      [1, 'trail running for beginners', 'trail-running-for-beginners', 8],
      [2, 'how to lace running shoes', 'lacing-guide', 11],
    ]);
    for (const spec of manifest.specs) {
      expect(spec.request.targetKeyword).toBe(spec.keyword);
      expect(spec.source.file).toBe(good('basic.yaml'));
    }
  });

  it('should apply defaults under the entries, and let an entry override them', async () => {
    const { specs } = await loadManifest(good('basic.yaml'));
    expect(specs.map((spec) => spec.request.includeFaq)).toEqual([true, false, true]);
    expect(specs[1]?.request.title).toBe('Trail Running for Beginners');
  });

  it('should fill every spec default the manifest leaves out', async () => {
    const { specs } = await loadManifest(good('basic.yaml'));
    const request = specs[0]?.request;
    expect(request).toMatchObject({ articleType: 'blog_post', gptVersion: 'model-6-luna', language: 'English', pointOfView: 'third_person' });
    expect(request?.polishSettings).toEqual(POLISH_SETTINGS_DEFAULTS);
  });

  it('should merge polishSettings member by member: spec defaults, then manifest defaults, then the entry', async () => {
    const specs = bySlug((await loadManifest(good('defaults-merge.yaml'))).specs);
    expect(specs['best-budget-headphones']?.request.polishSettings).toEqual({
      ...POLISH_SETTINGS_DEFAULTS,
      humanize: true,
      'split-up-long-paragraphs': false,
      'convert-passive-voice': true,
    });
    expect(specs['how-to-meditate']?.request.polishSettings).toEqual({
      ...POLISH_SETTINGS_DEFAULTS,
      humanize: false,
      'split-up-long-paragraphs': false,
    });
    expect(specs['how-to-meditate']?.request.pointOfView).toBe('first_person_singular');
    expect(specs['morning-routine-ideas']?.request.pointOfView).toBe('second_person');
  });

  it('should apply a type-specific default only to the entries of that type', async () => {
    const specs = bySlug((await loadManifest(good('defaults-merge.yaml'))).specs);
    expect(specs['morning-routine-ideas']?.request).toMatchObject({ articleType: 'listicle', numberOfItems: 7 });
    expect(specs['best-budget-headphones']?.request).toMatchObject({ articleType: 'retail_product_roundup', numRetailProducts: 20 });
    expect(specs['best-budget-headphones']?.request).not.toHaveProperty('numberOfItems');
    expect(specs['how-to-meditate']?.request).not.toHaveProperty('numberOfItems');
    expect(specs['how-to-meditate']?.request).not.toHaveProperty('numRetailProducts');
  });

  it('should read every article type with its own parameters', async () => {
    const specs = bySlug((await loadManifest(good('all-types.yaml'))).specs);
    expect(Object.values(specs).map((spec) => spec.request.articleType)).toEqual([
      'blog_post',
      'retail_product_roundup',
      'video_article',
      'rewrite_blog_post',
      'retail_single_product_review',
      'listicle',
      'local_places_roundup',
    ]);
    expect(specs['how-to-brew-pour-over-coffee']?.request).toMatchObject({
      realTimeDataSource: 'news',
      urls: ['https://example.com/coffee'],
      outline: ['Why pour-over', { title: 'Equipment', subsections: ['Kettle', 'Dripper'] }],
      imageSize: '16:9',
      maxImages: 3,
    });
    expect(specs['best-espresso-machines']?.request).toMatchObject({ numRetailProducts: 8, affiliateId: 'shop-21' });
    expect(specs['latte-art-tutorial-video']?.request).toMatchObject({ videoUrl: 'https://video.example/watch?v=abc' });
    expect(specs['coffee-myths-rewritten']?.request).toMatchObject({ articleUrl: 'https://blog.example/coffee-myths' });
    expect(specs['breville-bambino-review']?.request).toMatchObject({ productId: 'B07X', enableCondensedMode: true });
    expect(specs['7-coffee-brewing-methods']?.request).toMatchObject({ enableAutomaticLength: false, numberOfItems: 7 });
    expect(specs['best-cafes-in-lisbon']?.request).toMatchObject({ enableSupplementalInformation: false, numberOfItems: 10 });
  });

  it('should derive slugs for German, Russian and Japanese keywords and keep a given slug', async () => {
    const { specs } = await loadManifest(good('slugs.yaml'));
    expect(specs.map((spec) => spec.slug)).toEqual([
      'groesse-schuhe-fuer-maenner',
      'deja-vu-erklaert',
      'moskva-oteli',
      '東京-ラーメン-おすすめ',
      'iphone-15-ケース',
      'cafe-and-croissant',
      'Hand-Made_Slug.v2',
    ]);
  });

  it('should derive the slug from the keyword, not the title', async () => {
    const { specs } = await loadManifest(good('slugs.yaml'));
    expect(specs[5]).toMatchObject({ keyword: 'café & croissant', slug: 'cafe-and-croissant' });
    expect(specs[5]?.request.title).toBe('A new title does not move the slug');
  });

  it('should read a file with a BOM and CRLF line endings, with the right line numbers', async () => {
    const { specs } = await loadManifest(good('crlf-bom.yaml'));
    expect(specs.map((spec) => [spec.keyword, spec.source.line, spec.request.articleType])).toEqual([
      ['10 best hiking trails', 5, 'listicle'],
      ['packing list for a weekend hike', 6, 'listicle'],
    ]);
    expect(specs[1]?.request).toMatchObject({ numberOfItems: 12, enableAutomaticLength: false });
  });

  it('should read anchors and merge keys in a .yml file', async () => {
    const { specs } = await loadManifest(good('anchors.yml'));
    expect(specs.map((spec) => [spec.slug, spec.request.language, spec.request.articleType === 'blog_post' && spec.request.country])).toEqual([
      ['winter-tyres-guide', 'German', 'DE'],
      ['summer-tyres-guide', 'German', 'DE'],
    ]);
  });
});

describe('JSON manifests', () => {
  it('should read defaults and entries with line numbers', async () => {
    const { specs } = await loadManifest(good('basic.json'));
    expect(specs.map((spec) => [spec.slug, spec.source.line, spec.request.articleType])).toEqual([
      ['best-standing-desks', 4, 'retail_product_roundup'],
      ['office-chairs', 5, 'retail_product_roundup'],
      ['ergonomic-desk-setup', 6, 'blog_post'],
    ]);
    expect(specs.map((spec) => (spec.request.articleType === 'retail_product_roundup' ? spec.request.numRetailProducts : undefined))).toEqual([
      12,
      5,
      undefined,
    ]);
  });

  it('should read a file with a BOM and CRLF line endings, and Unicode keywords', async () => {
    const { specs } = await loadManifest(good('crlf-bom.json'));
    expect(specs.map((spec) => [spec.slug, spec.source.line, spec.request.language])).toEqual([
      ['groesse-schuhe-fuer-maenner', 3, 'English'],
      ['東京-ラーメン-おすすめ', 4, 'Japanese'],
    ]);
  });
});

describe('CSV manifests', () => {
  it('should take the keyword from the "Keyword" column and skip columns whose header starts with #', async () => {
    const { specs } = await loadManifest(good('keywords.csv'));
    expect(specs.map((spec) => [spec.keyword, spec.slug, spec.source.line])).toEqual([
      ['best trail shoes', 'best-trail-shoes', 2],
      ['how to choose trail shoes', 'choosing-trail-shoes', 3],
      ['trail shoes vs road shoes', 'trail-shoes-vs-road-shoes', 4],
    ]);
  });

  it('should type cells by the parameter: numbers, yes/no and TRUE/FALSE booleans, dotted polishSettings columns', async () => {
    const [roundup, guide] = (await loadManifest(good('keywords.csv'))).specs;
    expect(roundup?.request).toMatchObject({ articleType: 'retail_product_roundup', numRetailProducts: 12, autoPolish: true });
    expect(roundup?.request.polishSettings.humanize).toBe(true);
    expect(guide?.request.autoPolish).toBe(false);
  });

  it('should split list cells on "|" and read a JSON cell for a full outline', async () => {
    const [, guide, versus] = (await loadManifest(good('keywords.csv'))).specs;
    expect(guide?.request).toMatchObject({
      urls: ['https://a.example/guide', 'https://b.example/fit'],
      outline: ['Intro', 'Fit', 'Grip', 'Care'],
    });
    expect(versus?.request).toMatchObject({ outline: [{ title: 'Differences', subsections: ['Sole', 'Drop'] }] });
  });

  it('should leave a parameter to its default when its cell is empty', async () => {
    const [, , versus] = (await loadManifest(good('keywords.csv'))).specs;
    expect(versus?.request).toMatchObject({ articleType: 'blog_post', autoPolish: false });
    expect(versus?.request).not.toHaveProperty('urls');
  });

  it('should read a semicolon-separated export with a BOM and CRLF lines, quoted cells included', async () => {
    const { specs } = await loadManifest(good('semicolon-bom-crlf.csv'));
    expect(specs.map((spec) => [spec.keyword, spec.slug, spec.source.line, spec.request.articleType])).toEqual([
      ['7 Wanderwege in Bayern', '7-wanderwege-in-bayern', 2, 'listicle'],
      ['Größe Schuhe für Männer', 'groesse-schuhe-fuer-maenner', 3, 'blog_post'],
      ['Schuhe; Socken und mehr', 'schuhe-socken-und-mehr', 4, 'blog_post'],
    ]);
    expect(specs[0]?.request).toMatchObject({ numberOfItems: 7, enableAutomaticLength: false });
  });
});
