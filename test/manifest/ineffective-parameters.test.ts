// Parameters the spec says have no effect under the entry's other settings: an error on an entry (before anything is paid), a warning in defaults.
import { describe, expect, it } from 'vitest';
import { formatManifestProblem, parseManifest } from '../../src/manifest/index.js';
import { refusal } from './refusal.js';

const entry = (lines: string[]) => ['articles:', '  - keyword: 10 best hikes', ...lines.map((line) => `    ${line}`), ''].join('\n');

describe('parameters that would have no effect', () => {
  it.each([
    [['articleType: listicle', 'numberOfItems: 6'], 'numberOfItems', '`enableAutomaticLength: false`'],
    [['articleLength: long', 'numberOfSections: 5'], 'numberOfSections', '`articleLength: custom`'],
    [['polishSettings: { humanize: true }'], 'polishSettings', '`autoPolish: true`'],
    [['polishCustomInstructions: shorter sentences'], 'polishCustomInstructions', '`autoPolish: true`'],
    [['enableDeepResearch: true'], 'enableDeepResearch', '`realTimeData: true`'],
    [['realTimeDataSource: news'], 'realTimeDataSource', '`realTimeData: true`'],
    [['realTimeData: true', 'realTimeDataSource: web', 'realTimeDateRange: past_week'], 'realTimeDateRange', '`realTimeDataSource: news`'],
    [['extraEntitiesPrompt: boots, socks'], 'extraEntitiesPrompt', '`seoOptimizationLevel: manual`'],
  ])('should refuse %j on an entry, naming the entry, the field and the setting that would make it effective', (lines, field, needs) => {
    const error = refusal(entry(lines));
    expect(error.problems).toHaveLength(1);
    expect(formatManifestProblem(error.problems[0]!)).toMatch(new RegExp(`^articles\\.yaml:\\d+ articles\\[0\\] "10 best hikes" → ${field}: has no effect without ${needs.replace(/[`]/g, '.')}`));
  });

  it('should accept each parameter beside the setting that makes it effective', () => {
    const manifest = parseManifest(
      entry(['articleType: listicle', 'enableAutomaticLength: false', 'numberOfItems: 6']) +
        ['  - keyword: trail running', '    articleLength: custom', '    numberOfSections: 5', '    autoPolish: true', '    polishSettings: { humanize: true }', '    polishCustomInstructions: short',
          '    realTimeData: true', '    enableDeepResearch: true', '    realTimeDataSource: news', '    realTimeDateRange: past_week', '    seoOptimizationLevel: manual', '    extraEntitiesPrompt: boots', ''].join('\n'),
      'articles.yaml',
    );
    expect(manifest.specs).toHaveLength(2);
    expect(manifest.warnings).toEqual([]);
  });

  it('should refuse a type-specific parameter on another article type', () => {
    expect(formatManifestProblem(refusal(entry(['numRetailProducts: 4'])).problems[0]!)).toContain('→ numRetailProducts: applies only to articleType "retail_product_roundup", but this entry is "blog_post"');
  });

  it('should warn once per default that some entries take without effect, naming them, and still read the manifest', () => {
    const yaml = [
      'defaults:',
      '  numberOfItems: 6',
      '  autoPolish: false',
      '  polishCustomInstructions: short sentences',
      'articles:',
      '  - keyword: 10 best hikes',
      '    articleType: listicle',
      '  - keyword: packing list',
      '    articleType: listicle',
      '    enableAutomaticLength: false',
      '  - keyword: trail running',
      '',
    ].join('\n');
    const manifest = parseManifest(yaml, 'articles.yaml');
    expect(manifest.specs).toHaveLength(3);
    expect(manifest.warnings.map(formatManifestProblem)).toEqual([
      'articles.yaml:2 defaults → numberOfItems: has no effect on 1 entry: 10-best-hikes, without `enableAutomaticLength: false` (otherwise the count comes from the keyword, or is 10); set it on the entries it is meant for instead',
      'articles.yaml:4 defaults → polishCustomInstructions: has no effect on every entry (3): 10-best-hikes, packing-list, trail-running, without `autoPolish: true`; set it on the entries it is meant for instead',
      'articles.yaml:2 defaults → numberOfItems: has no effect on 1 entry: trail-running, as it applies only to articleType "listicle" or "local_places_roundup"; set it on the entries it is meant for instead',
    ]);
  });
});

describe("the manifest guide's YAML example", () => {
  it('should read without a problem or a warning', async () => {
    const { readFile } = await import('node:fs/promises');
    const guide = await readFile(new URL('../../docs/manifest.md', import.meta.url), 'utf8');
    const example = /## YAML\n```yaml\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(example).toBeDefined();
    const manifest = parseManifest(example!, 'articles.yaml');
    expect(manifest.specs.map((spec) => spec.slug)).toEqual(['10-best-hiking-trails', 'weekend-packing-list', 'best-hiking-boots']);
    expect(manifest.warnings).toEqual([]);
  });
});
