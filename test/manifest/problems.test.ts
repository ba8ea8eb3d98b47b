// Problems are reported all together, in file order, one terminal line each: file:line entry → field: what is wrong and what to do.
import { describe, expect, it } from 'vitest';
import { formatManifestProblem, type ManifestProblem } from '../../src/manifest/index.js';
import { refusal } from './refusal.js';

const manyProblems = [
  'defaults:', //                                        1
  '  langauge: German', //                               2  defaults → langauge
  'article: []', //                                      3  top level → article
  'articles:', //                                        4
  '  - best running shoes', //                           5
  '  - keyword: best trail shoes', //                    6
  '    numRetailProducts: 12', //                        7  another type's parameter
  '  - 404', //                                          8  numeric keyword
  '  - keyword: hiking boots', //                        9
  '    slug: ../boots', //                               10 unsafe slug
  '    autoPolish: yes', //                              11 not a boolean
  '  - Best  Running Shoes', //                          12 duplicate keyword
  '',
].join('\n');

describe('reporting problems', () => {
  it('should report every problem of a manifest together, in file order', () => {
    const error = refusal(manyProblems);
    expect(error.problems.map((problem) => [problem.line, problem.field])).toEqual([
      [2, 'langauge'],
      [3, 'article'],
      [7, 'numRetailProducts'],
      [8, 'keyword'],
      [10, 'slug'],
      [11, 'autoPolish'],
      [12, 'keyword'],
    ]);
  });

  it('should list every problem in the message, one line each, after a count', () => {
    const lines = refusal(manyProblems).message.split('\n');
    expect(lines[0]).toBe('Manifest articles.yaml has 7 problems; fix and run again:');
    expect(lines.slice(1)).toEqual([
      '  articles.yaml:2 defaults → langauge: is not a request parameter; did you mean "language"?',
      '  articles.yaml:3 top level → article: is not part of a manifest, which has only `defaults`, `articles`, `review`, `translations`, `budget`, `lookahead` and `quality`; did you mean "articles"?',
      '  articles.yaml:7 articles[1] "best trail shoes" → numRetailProducts: applies only to articleType "retail_product_roundup", but this entry is "blog_post"; set `articleType: retail_product_roundup` or remove it',
      '  articles.yaml:8 articles[2] "404" → keyword: must be text, not the number 404; quote it: - "404"',
      '  articles.yaml:10 articles[3] "hiking boots" → slug: "../boots" contains "..", which could point outside its folder; remove it',
      '  articles.yaml:11 articles[3] "hiking boots" → autoPolish: must be true or false, not the text "yes"; write true or false without quotes',
      '  articles.yaml:12 articles[4] "Best Running Shoes" → keyword: duplicates articles[0] "best running shoes" (line 5); each keyword may appear once (case and spacing are ignored), so remove one',
    ]);
  });

  it('should format one problem as file:line entry → field: message', () => {
    const text = ['articles:', '  - a', '  - b', '  - c', '  - keyword: best shoes', '    articleType: retail_product_roundup', '    numRetailProducts: 60', ''].join('\n');
    const problem = refusal(text).problems[0] as ManifestProblem;
    expect(problem).toEqual({
      file: 'articles.yaml',
      line: 7,
      section: 'articles',
      index: 3,
      keyword: 'best shoes',
      field: 'numRetailProducts',
      message: 'must be from 1 to 48 (got 60)',
    });
    expect(formatManifestProblem(problem)).toBe('articles.yaml:7 articles[3] "best shoes" → numRetailProducts: must be from 1 to 48 (got 60)');
  });

  it('should report a problem in defaults once, not once per entry', () => {
    const text = 'defaults:\n  maxImages: many\narticles:\n  - a\n  - b\n  - c\n';
    const error = refusal(text);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatchObject({ section: 'defaults', field: 'maxImages', line: 2 });
  });

  it('should report each parameter of another article type as its own problem, on its own line', () => {
    const text = 'articles:\n  - keyword: best shoes\n    numberOfItems: 5\n    numRetailProducts: 5\n    videoUrl: https://v.example/x\n';
    const error = refusal(text);
    expect(error.problems.map((problem) => [problem.line, problem.field])).toEqual([
      [3, 'numberOfItems'],
      [4, 'numRetailProducts'],
      [5, 'videoUrl'],
    ]);
    expect(error.problems[2]?.message).toContain('applies only to articleType "video_article"');
  });

  it('should keep checking an entry whose keyword is bad', () => {
    const error = refusal('articles:\n  - keyword: ""\n    maxImages: -2\n');
    expect(error.problems.map((problem) => problem.field)).toEqual(['keyword', 'maxImages']);
  });

  it('should stop at a syntax error, since what follows it cannot be trusted', () => {
    const error = refusal('articles:\n  - keyword: "open\n    maxImages: -2\n');
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]?.section).toBe('file');
  });

  it('should name an entry by index alone when it has no usable keyword', () => {
    const error = refusal('articles:\n  - title: no keyword here\n');
    expect(error.message).toContain('articles.yaml:2 articles[0] → keyword: is missing');
  });

  it('should name a key written twice by its entry, its field and both lines, at every level, in YAML and JSON', () => {
    const yaml = ['articles:', '  - keyword: best shoes', '    autoPolish: true', '    polishSettings:', '      humanize: true', '      humanize: false', 'defaults:', '  language: German', '  language: French', ''].join('\n');
    expect(refusal(yaml).problems.map(({ line, section, index, keyword, field, message }) => ({ line, section, index, keyword, field, message }))).toEqual([
      { line: 6, section: 'articles', index: 0, keyword: 'best shoes', field: 'polishSettings.humanize', message: 'the key "humanize" appears twice in the same mapping, on lines 5 and 6; keep one' },
      { line: 9, section: 'defaults', index: undefined, keyword: undefined, field: 'language', message: 'the key "language" appears twice in the same mapping, on lines 8 and 9; keep one' },
    ]);
    const json = ['{"articles": [', '  "boots",', '  {"keyword": "best shoes",', '   "title": "A",', '   "title": "B"}]}'].join('\n');
    expect(refusal(json, 'articles.json').message).toContain('articles.json:5 articles[1] "best shoes" → title: the key "title" appears twice in the same object, on lines 4 and 5; keep one');
  });

  it('should name the entry and field of an alias or merge of an anchor that is not defined, and every such place', () => {
    const error = refusal('defaults:\n  <<: *base\narticles:\n  - keyword: best shoes\n    title: *nope\n  - *missing\n');
    expect(error.problems.map(formatManifestProblem)).toEqual([
      'articles.yaml:2 defaults → <<: merges *base, but no anchor &base is defined before it; define it (e.g. `defaults: &base`) or remove the merge',
      'articles.yaml:5 articles[0] "best shoes" → title: refers to *nope, but no anchor &nope is defined before it; define it (e.g. `defaults: &nope`) or remove the alias',
      'articles.yaml:6 articles[1]: refers to *missing, but no anchor &missing is defined before it; define it (e.g. `defaults: &missing`) or remove the alias',
    ]);
  });

  it('should show a long keyword shortened in the message but whole in the problem', () => {
    const keyword = `best ${'very '.repeat(20)}long keyword`;
    const error = refusal(`articles:\n  - keyword: ${keyword}\n    maxImages: -1\n`);
    expect(error.problems[0]?.keyword).toBe(keyword);
    expect(error.message).toMatch(/articles\[0\] "best very very [^"]{20,50}…" → maxImages/);
  });
});
