// The text checks on real words in many scripts: what a keyword, a one-line field, a URL and a prompt may hold, and how hidden characters are shown in messages.
import { describe, expect, it } from 'vitest';
import { formatManifestProblem } from '../../src/manifest/index.js';
import { refusal as refusalOf } from './refusal.js';
import { textProblem, textValueProblems } from '../../src/manifest/text-hygiene.js';

const refusal = (text: string, file = 'articles.json') => refusalOf(text, file);

const REAL_KEYWORDS = [
  'giày chạy bộ tốt nhất', // Vietnamese, composed
  'giày chạy bộ tốt nhất'.normalize('NFD'), // Vietnamese, decomposed: up to 2 marks on a letter
  'Tiếng Việt cho người mới bắt đầu'.normalize('NFD'),
  'सबसे अच्छे जूते', // Hindi
  'क्षत्रिय इतिहास', // Hindi conjuncts
  'รองเท้าวิ่งที่ดีที่สุด', // Thai: vowel and tone marks stacked
  'ক্ষুধার্ত বিড়াল', // Bengali
  'བསྒྲུབས་པ', // Tibetan stacks
  'می‌خواهم کفش بخرم', // Persian with a zero-width non-joiner between letters
  'ಕನ್ನಡ ಪುಸ್ತಕಗಳು', // Kannada
  '東京 ラーメン おすすめ',
  'Größe Schuhe für Männer',
  '👩‍💻 home office setup', // an emoji ZWJ sequence
  '1️⃣ first steps', // a keycap: digit, variation selector, combining keycap
  '-5 tips for winter running', // "-" before a digit: a negative number or a range, not a formula
  '5-minute breakfast',
  'C++ for beginners',
  'e-mail etiquette',
];

describe('keywords', () => {
  it.each(REAL_KEYWORDS)('should accept the real keyword %j', (keyword) => {
    expect(textProblem(keyword, 'keyword')).toBeUndefined();
  });

  it.each([
    ['a lone high surrogate', 'best \uD800 shoes', 'lone UTF-16 surrogate, U+D800'],
    ['a lone low surrogate', 'best \uDC00 shoes', 'lone UTF-16 surrogate, U+DC00'],
    ['a replacement character', 'Gr\uFFFD\uFFFDe', 'U+FFFD'],
    ['a right-to-left override', 'best \u202Eshoes', 'bidirectional control U+202E'],
    ['a left-to-right embedding', '\u202Abest shoes', 'bidirectional control U+202A'],
    ['a first-strong isolate', 'best \u2068shoes\u2069', 'bidirectional control U+2068'],
    ['a zero-width space', 'best\u200Bshoes', 'invisible character U+200B'],
    ['a word joiner', 'best\u2060shoes', 'invisible character U+2060'],
    ['a BOM inside', 'best\uFEFFshoes', 'byte-order mark'],
    ['a soft hyphen', 'Schuh\u00ADgröße', 'invisible character U+00AD'],
    ['a zero-width joiner beside ASCII', 'best\u200Dshoes', 'invisible character U+200D'],
    ['a Hangul filler', 'best \u3164 shoes', 'invisible character U+3164'],
    ['tag characters', 'best shoes\u{E0049}\u{E0047}\u{E004E}', 'tag character U+E0049'],
    ['a tab', 'best\tshoes', 'contains a tab'],
    ['a line break', 'best\nshoes', 'contains a line break'],
    ['a line separator', 'best\u2028shoes', 'contains a line break'],
    ['a next-line control', 'best\u0085shoes', 'contains a line break'],
    ['a bell', 'best\u0007shoes', 'control character U+0007'],
    ['an escape', 'best\u001B[31mshoes', 'control character U+001B'],
    ['a C1 control sequence introducer', 'best\u009Bshoes', 'control character U+009B'],
    ['six combining marks on one letter', `shoe${'\u0301'.repeat(6)}s`, '6 combining marks on one letter'],
    ['300 combining marks', `z${'\u0336'.repeat(300)}`, '300 combining marks'],
    ['a formula', '=HYPERLINK("https://evil.example","click")', 'starts with "="'],
    ['a leading plus', '+1 phone cases', 'starts with "+"'],
    ['a leading at', '@SUM(A1:A9)', 'starts with "@"'],
    ['a minus before a letter', '-cmd|calc', 'starts with "-"'],
  ])('should refuse %s', (_name, keyword, says) => {
    expect(textProblem(keyword, 'keyword')).toContain(says);
  });

  it('should allow five combining marks on one letter and refuse six', () => {
    expect(textProblem(`a${'\u0301'.repeat(5)}`, 'keyword')).toBeUndefined();
    expect(textProblem(`a${'\u0301'.repeat(6)}`, 'keyword')).toContain('6 combining marks');
  });
});

describe('other text sent to the service', () => {
  it('should let prompts hold line breaks and indentation, as extraOutlinePrompt documents', () => {
    expect(textValueProblems('Introduction\n  Why it matters\n\tHow to start\r\nConclusion', ['extraOutlinePrompt'])).toEqual([]);
    expect(textValueProblems('Write short paragraphs.\n\nUse British spelling.', ['polishCustomInstructions'])).toEqual([]);
  });

  it('should let titles and prose hold what their scripts use: a zero-width space in Thai, a soft hyphen, a flag with tag characters', () => {
    expect(textValueProblems('รองเท้า\u200Bวิ่ง', ['title'])).toEqual([]);
    expect(textValueProblems('Donau\u00ADdampf\u00ADschiff\u00ADfahrt', ['title'])).toEqual([]);
    expect(textValueProblems('Hiking in 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Scotland', ['title'])).toEqual([]);
    expect(textValueProblems('  Best shoes\n', ['title'])).toEqual([]); // the schema trims it
  });

  it('should refuse line breaks and tabs in one-line fields, nested ones included', () => {
    expect(textValueProblems('Best\nshoes', ['title'])).toEqual([{ path: ['title'], message: expect.stringContaining('line break') }]);
    expect(textValueProblems(['Intro', { title: 'Fit\tand grip' }], ['outline'])).toEqual([
      { path: ['outline', 1, 'title'], message: expect.stringContaining('contains a tab') },
    ]);
    expect(textValueProblems('Ger\nman', ['language'])[0]?.message).toContain('line break');
  });

  it('should refuse invisible characters and line breaks in URLs, which a URL parser would quietly encode or drop', () => {
    expect(textValueProblems(['https://a.example/x', 'https://a.example/\u200By'], ['urls'])).toEqual([
      { path: ['urls', 1], message: expect.stringContaining('U+200B') },
    ]);
    expect(textValueProblems('https://a.example/\nx', ['webhookUrl'])[0]?.message).toContain('line break');
  });

  it('should refuse in every field what can never be sent: broken characters, bidi controls, tag characters, control characters, piles of marks', () => {
    for (const field of ['title', 'extraSectionPrompt', 'urls']) {
      expect(textValueProblems('a\uD800b', [field])[0]?.message, field).toContain('lone UTF-16 surrogate');
      expect(textValueProblems('a\u2067b', [field])[0]?.message, field).toContain('bidirectional control U+2067');
      expect(textValueProblems('a\u{E0041}b', [field])[0]?.message, field).toContain('tag character');
      expect(textValueProblems('a\u0000b', [field])[0]?.message, field).toContain('control character U+0000');
      expect(textValueProblems(`a${'\u0489'.repeat(12)}`, [field])[0]?.message, field).toContain('12 combining marks');
    }
  });

  it('should check the names in mappings, which are sent too', () => {
    expect(textValueProblems([{ title: 'A', 'x\u202Ey': 'b' }], ['outline'])).toEqual([
      { path: ['outline', 0, 'x\u202Ey'], message: expect.stringContaining('bidirectional control U+202E') },
    ]);
  });

  it('should not refuse a title that merely starts like a formula: only keywords are exported to spreadsheets', () => {
    expect(textValueProblems('+20% faster: a training plan', ['title'])).toEqual([]);
  });
});

describe('hidden characters in messages', () => {
  it('should show control, bidi and broken characters as escapes, in keywords and in field names alike', () => {
    const error = refusal('{"articles": [{"keyword": "best \\u202eshoes"}, {"keyword": "boots", "\\u001b[31mred\\u009b": 1}, "\\ud800x"]}');
    const lines = error.message.split('\n').slice(1);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('articles[0] "best \\u202Eshoes" → keyword:');
    expect(lines[1]).toContain('articles[1] "boots" → \\u001B[31mred\\u009B:');
    expect(lines[2]).toContain('articles[2] "\\ud800x" → keyword:');
    for (const line of lines) expect(line).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\uD800-\uDFFF]/);
  });

  it('should keep the characters of real text as they are', () => {
    const line = formatManifestProblem({ file: 'a.yaml', line: 2, section: 'articles', index: 0, keyword: 'รองเท้าวิ่ง 👩‍💻', field: 'title', message: 'must not be empty' });
    expect(line).toBe('a.yaml:2 articles[0] "รองเท้าวิ่ง 👩‍💻" → title: must not be empty');
  });
});
