// Bad input as a stranger meets it: each case is written into a copy of a finished site and run through the command line (plan and sync, text and --json) against a live emulator. One clear error naming file, entry and field; no stack; no request; nothing in the site changed.
// Every case runs through the bin's own `main` in this process; every SAMPLE_EVERY-th case also through the built bin in a child, which must answer the same.
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { buildCli, EMULATOR_ACCOUNTS, expectNoSecret, manifestYaml, runCli, serviceEnv, type CliResult } from '../cli/cli-harness.js';
import { runCliInProcess } from '../cli/in-process-cli.js';

/** One bad input: files written over a copy of the finished site, and what the CLI must say. */
interface BadInput {
  name: string;
  /** Written into the site, replacing what is there: a bad manifest, or a lock file's own text. */
  files: Record<string, string | Buffer>;
  /** What follows the command; by default `-m <the first file>`. */
  args?: string[];
  /** By default 2: the input is the user's to fix. */
  exitCode?: number;
  /** In stderr, and in the --json document's error message: `file:line`, the entry, `→ field: `, what is wrong. */
  says: string[];
  /** The --json error's code; by default `invalid_manifest`. */
  code?: string;
  /** A problem the --json error must list (manifest cases): its line, section, index and field. */
  problem?: { line?: number; section?: string; index?: number; field?: string };
}

/** Each case runs as `sync` (what pays) and `plan --json` (one JSON document): both commands, both outputs. */
const RUNS: readonly { command: string; json: boolean }[] = [
  { command: 'sync', json: false },
  { command: 'plan', json: true },
];

interface Where {
  line?: number;
  /** `articles[2]`, `defaults`, `header`, `top level`; omitted for a problem of the whole file. */
  entry?: string;
  field?: string;
}

/** A bad manifest named `file`, and where its (first) problem must be reported. */
function manifest(name: string, file: string, content: string | Buffer, where: Where, ...says: string[]): BadInput {
  const index = /^articles\[(\d+)\]/.exec(where.entry ?? '')?.[1];
  const section = where.entry === undefined ? 'file' : where.entry === 'top level' ? 'top-level' : index !== undefined ? 'articles' : where.entry;
  return {
    name,
    files: { [file]: content },
    says: [where.line === undefined ? file : `${file}:${where.line}`, ...(where.entry ? [` ${where.entry}`] : []), ...(where.field ? [`→ ${where.field}: `] : []), ...says],
    problem: {
      section,
      ...(where.line === undefined ? {} : { line: where.line }),
      ...(index === undefined ? {} : { index: Number(index) }),
      ...(where.field === undefined ? {} : { field: where.field }),
    },
  };
}

const lines = (...text: string[]): string => `${text.join('\n')}\n`;
const utf16le = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string): Buffer => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

const BROKEN = 'lone UTF-16 surrogate';
const BIDI = 'bidirectional control';
const FORMULA = 'a spreadsheet would run it as a formula';
const ONLY_A_NUMBER = 'is only a number';

/** Strings that are not well-formed, in every kind of field the service is sent, and in the slug. */
const brokenText: BadInput[] = [
  manifest('a lone high surrogate in a JSON keyword', 'articles.json', '{"articles": ["best \\ud800 shoes"]}', { line: 1, entry: 'articles[0]', field: 'keyword' }, `${BROKEN}, U+D800`, 'retype the text'),
  manifest('a lone low surrogate in a keyword', 'articles.json', lines('{', '  "articles": [', '    { "keyword": "best trail shoes" },', '    { "keyword": "\\udc00 hiking boots" }', '  ]', '}'), { line: 4, entry: 'articles[1]', field: 'keyword' }, `${BROKEN}, U+DC00`),
  manifest('a lone surrogate in a title', 'articles.json', lines('{"articles": [', '  {"keyword": "best trail shoes",', '   "title": "Trail shoes \\ud83d"}', ']}'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'title' }, BROKEN),
  manifest('a lone surrogate deep in an outline', 'articles.json', lines('{"articles": [{"keyword": "best trail shoes",', '  "outline": [{"title": "Fit", "subsections": ["Width", "Heel \\udfff"]}]}]}'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'outline[0].subsections[1]' }, BROKEN),
  manifest('a lone surrogate in the second URL', 'articles.json', lines('{"articles": [{"keyword": "best trail shoes",', '  "urls": ["https://a.example/x", "https://b.example/\\ud800"]}]}'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'urls[1]' }, BROKEN),
  manifest('a lone surrogate in polishCustomInstructions', 'articles.json', lines('{"articles": [{"keyword": "best trail shoes",', '  "polishCustomInstructions": "Keep it short \\udbff"}]}'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'polishCustomInstructions' }, BROKEN),
  manifest('a lone surrogate in a default prompt', 'articles.json', lines('{"defaults": {', '  "extraOutlinePrompt": "Intro\\n  \\ud800"},', ' "articles": ["best trail shoes"]}'), { line: 2, entry: 'defaults', field: 'extraOutlinePrompt' }, BROKEN),
  manifest('a lone surrogate in a slug', 'articles.json', lines('{"articles": [{"keyword": "best trail shoes",', '  "slug": "trail-\\ud800"}]}'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'slug' }, BROKEN),
  {
    // Shown escaped in the message; the --json problem holds the name as it is.
    ...manifest('a lone surrogate in the name of an outline member', 'articles.json', lines('{"articles": [{"keyword": "best trail shoes",', '  "outline": [{"title": "Fit", "\\ud800": "x"}]}]}'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'outline[0].\\uD800' }, 'the name', BROKEN),
    problem: { line: 2, section: 'articles', index: 0, field: 'outline[0].\ud800' },
  },
  manifest('a lone surrogate in a YAML keyword', 'articles.yaml', lines('articles:', '  - best trail shoes', '  - "hiking \\ud800 boots"'), { line: 3, entry: 'articles[1]', field: 'keyword' }, BROKEN),
  manifest('a lone surrogate in a YAML prompt', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    extraTitlePrompt: "Catchy \\udc00"'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'extraTitlePrompt' }, BROKEN),
  manifest('replacement characters left by a wrong decoding', 'articles.csv', lines('keyword,title', 'best trail shoes,Trail', 'Gr\uFFFD\uFFFDe Schuhe,Größe'), { line: 3, entry: 'articles[1]', field: 'keyword' }, 'U+FFFD', 'save the file as UTF-8'),
];

/** Bidirectional controls ("Trojan Source"), in keywords and in every other text. */
const bidi: BadInput[] = [
  manifest('a right-to-left override in a bare YAML keyword', 'articles.yaml', lines('articles:', '  - best trail shoes', '  - hiking \u202Eboots'), { line: 3, entry: 'articles[1] "hiking \\u202Eboots"', field: 'keyword' }, `${BIDI} U+202E`, 'what you read is not what is sent'),
  manifest('a left-to-right embedding in a CSV keyword', 'articles.csv', lines('keyword,title', '\u202Abest trail shoes,Trail'), { line: 2, entry: 'articles[0]', field: 'keyword' }, `${BIDI} U+202A`),
  manifest('a left-to-right isolate in a JSON keyword', 'articles.json', '{"articles": ["best \\u2066trail\\u2069 shoes"]}', { line: 1, entry: 'articles[0]', field: 'keyword' }, `${BIDI} U+2066`),
  manifest('a pop-directional-isolate in a title', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    title: Trail shoes\u2069 2025'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'title' }, `${BIDI} U+2069`),
  manifest('a right-to-left embedding in a default prompt', 'articles.yaml', lines('defaults:', '  extraSectionPrompt: "Mention \u202Bprices"', 'articles:', '  - best trail shoes'), { line: 2, entry: 'defaults', field: 'extraSectionPrompt' }, `${BIDI} U+202B`),
  manifest('a left-to-right override in a slug', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    slug: "trail\u202Dshoes"'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'slug' }, `${BIDI} U+202D`),
  manifest('a right-to-left isolate in an outline section', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    outline:', '      - Fit', '      - "Grip \u2067test"'), { line: 5, entry: 'articles[0] "best trail shoes"', field: 'outline[1]' }, `${BIDI} U+2067`),
];

/** Zero-width, invisible and tag characters. */
const invisible: BadInput[] = [
  manifest('a zero-width space in a keyword', 'articles.yaml', lines('articles:', '  - best\u200Btrail shoes'), { line: 2, entry: 'articles[0] "best\\u200Btrail shoes"', field: 'keyword' }, 'invisible character U+200B'),
  manifest('a word joiner in a CSV keyword', 'articles.csv', lines('keyword', 'best trail shoes', 'hiking\u2060boots'), { line: 3, entry: 'articles[1]', field: 'keyword' }, 'invisible character U+2060'),
  manifest('a byte-order mark inside a CSV keyword', 'articles.csv', lines('keyword', 'best \uFEFFtrail shoes'), { line: 2, entry: 'articles[0]', field: 'keyword' }, 'U+FEFF', 'byte-order mark'),
  manifest('a zero-width joiner beside ASCII', 'articles.json', '{"articles": ["best\\u200dshoes"]}', { line: 1, entry: 'articles[0]', field: 'keyword' }, 'invisible character U+200D'),
  manifest('a soft hyphen in a keyword', 'articles.yaml', lines('articles:', '  - Lauf\u00ADschuhe'), { line: 2, entry: 'articles[0]', field: 'keyword' }, 'invisible character U+00AD'),
  manifest('a byte-order mark inside a title', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    title: "Trail\uFEFF shoes"'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'title' }, 'U+FEFF'),
  manifest('a zero-width space inside a URL', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    urls:', '      - https://a.example/\u200Bshoes'), { line: 4, entry: 'articles[0] "best trail shoes"', field: 'urls[0]' }, 'invisible character U+200B'),
  manifest('tag characters hiding text in a prompt', 'articles.json', lines('{"articles": [{"keyword": "best trail shoes",', '  "extraIntroductionPrompt": "Be brief\\udb40\\udc49\\udb40\\udc47"}]}'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'extraIntroductionPrompt' }, 'tag character U+E0049', 'hide instructions'),
];

/** Control characters, where a field is one line or not text at all. */
const controls: BadInput[] = [
  manifest('a tab inside a CSV keyword', 'articles.csv', lines('keyword,title', 'best\ttrail shoes,Trail'), { line: 2, entry: 'articles[0]', field: 'keyword' }, 'contains a tab'),
  manifest('a line break inside a quoted CSV keyword', 'articles.csv', lines('keyword,title', 'hiking boots,Boots', '"best trail', 'shoes",Trail'), { line: 3, entry: 'articles[1]', field: 'keyword' }, 'contains a line break', 'a keyword is one line'),
  manifest('a bell in a keyword', 'articles.json', '{"articles": ["best\\u0007trail shoes"]}', { line: 1, entry: 'articles[0]', field: 'keyword' }, 'control character U+0007'),
  manifest('a next-line control in a keyword', 'articles.json', '{"articles": ["best\\u0085trail shoes"]}', { line: 1, entry: 'articles[0]', field: 'keyword' }, 'contains a line break'),
  manifest('a line separator in a keyword', 'articles.json', '{"articles": ["best\\u2028trail shoes"]}', { line: 1, entry: 'articles[0]', field: 'keyword' }, 'contains a line break'),
  manifest('a line break in a title', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    title: "Best trail\\nshoes"'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'title' }, 'contains a line break', 'one line of text'),
  manifest('a tab in a language', 'articles.yaml', lines('defaults:', '  language: "Ger\\tman"', 'articles:', '  - best trail shoes'), { line: 2, entry: 'defaults', field: 'language' }, 'contains a tab'),
  manifest('a line break in a URL', 'articles.json', lines('{"articles": [{"keyword": "best trail shoes",', '  "urls": ["https://a.example/\\nshoes"]}]}'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'urls[0]' }, 'contains a line break', 'a URL is one line'),
  manifest('a NUL in a prompt', 'articles.json', lines('{"articles": [{"keyword": "best trail shoes",', '  "extraSectionPrompt": "Short\\u0000sections"}]}'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'extraSectionPrompt' }, 'control character U+0000'),
  manifest('a terminal escape in a prompt', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    extraSectionPrompt: "\\e[2JShort sections"'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'extraSectionPrompt' }, 'control character U+001B'),
  manifest('a C1 control in a title', 'articles.json', lines('{"articles": [{"keyword": "best trail shoes",', '  "title": "Trail \\u009b31m shoes"}]}'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'title' }, 'control character U+009B'),
];

/** Piles of combining marks ("Zalgo" text), paid for like any article. */
const zalgo: BadInput[] = [
  manifest('300 combining marks on one letter', 'articles.yaml', lines('articles:', '  - best trail shoes', `  - z${'\u0336'.repeat(300)}algo`), { line: 3, entry: 'articles[1]', field: 'keyword' }, '300 combining marks on one letter'),
  manifest('eight combining marks in a CSV keyword', 'articles.csv', lines('keyword', `sho${'\u0301'.repeat(8)}es`), { line: 2, entry: 'articles[0]', field: 'keyword' }, '8 combining marks'),
  manifest('a pile of combining marks in a title', 'articles.json', `{"articles": [{"keyword": "best trail shoes", "title": "T${'\\u0489'.repeat(20)}rail"}]}`, { line: 1, entry: 'articles[0] "best trail shoes"', field: 'title' }, '20 combining marks'),
];

/** Keywords a spreadsheet would run as formulas (CSV injection). */
const formulas: BadInput[] = [
  manifest('=HYPERLINK in a CSV keyword', 'articles.csv', lines('keyword,title', '"=HYPERLINK(""https://evil.example"",""shoes"")",Shoes'), { line: 2, entry: 'articles[0]', field: 'keyword' }, 'starts with "="', FORMULA),
  manifest('a leading plus', 'articles.yaml', lines('articles:', '  - +cmd shoes'), { line: 2, entry: 'articles[0] "+cmd shoes"', field: 'keyword' }, 'starts with "+"', FORMULA),
  manifest('a leading at sign', 'articles.json', '{"articles": ["@SUM(1+1)*cmd"]}', { line: 1, entry: 'articles[0]', field: 'keyword' }, 'starts with "@"'),
  manifest('a minus before a letter', 'articles.yaml', lines('articles:', '  - "-cmd|calc shoes"'), { line: 2, entry: 'articles[0]', field: 'keyword' }, 'starts with "-"', 'rephrase it'),
  manifest('a tab before an equals sign', 'articles.csv', lines('keyword,title', '"\t=1+2",Sum'), { line: 2, entry: 'articles[0]', field: 'keyword' }, 'starts with "="'),
  manifest('a space before an equals sign', 'articles.yaml', lines('articles:', '  - " =SUM(A1:A9)"'), { line: 2, entry: 'articles[0]', field: 'keyword' }, 'starts with "="'),
];

/** YAML: merges and aliases of missing anchors, tabs, duplicate keys at every level. */
const yaml: BadInput[] = [
  manifest('a merge of a missing anchor in an entry', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    <<: *missing'), { line: 3, entry: 'articles[0] "best trail shoes"', field: '<<' }, 'merges *missing', 'no anchor &missing'),
  manifest('a merge of a missing anchor in defaults', 'articles.yaml', lines('defaults:', '  <<: *base', 'articles:', '  - best trail shoes'), { line: 2, entry: 'defaults', field: '<<' }, 'merges *base'),
  manifest('a merge of a number', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    <<: 5'), { line: 3, entry: 'articles[0] "best trail shoes"', field: '<<' }, 'merges something that is not a mapping'),
  manifest('an alias of a missing anchor as a value', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    title: *nope'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'title' }, 'refers to *nope'),
  manifest('flow lists nested 5,000 deep', 'articles.yaml', lines('articles:', `  - ${'['.repeat(5000)}${']'.repeat(5000)}`), {}, 'the YAML is nested too deeply to read; a manifest needs only a few levels'),
  manifest('block lists nested 2,000 deep', 'articles.yaml', lines('articles:', ...Array.from({ length: 2000 }, (_, depth) => `${' '.repeat(depth + 2)}-`)), {}, 'nested too deeply'),
  manifest('tab indentation in the list', 'articles.yaml', lines('articles:', '\t- best trail shoes'), { line: 2 }, 'YAML does not allow tabs for indentation; use spaces'),
  manifest('tab indentation in an entry', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '\ttitle: Trail'), { line: 3 }, 'YAML does not allow tabs for indentation'),
  manifest('a top-level key given twice', 'articles.yaml', lines('articles:', '  - best trail shoes', 'articles:', '  - hiking boots'), { line: 3, entry: 'top level', field: 'articles' }, 'appears twice in the same mapping, on lines 1 and 3'),
  manifest('a key given twice in defaults', 'articles.yaml', lines('defaults:', '  language: German', '  articleLength: short', '  language: French', 'articles:', '  - best trail shoes'), { line: 4, entry: 'defaults', field: 'language' }, 'on lines 2 and 4'),
  manifest('a key given twice in an entry', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    title: Trail', '    title: Shoes'), { line: 4, entry: 'articles[0] "best trail shoes"', field: 'title' }, 'on lines 3 and 4'),
  manifest('a polish setting given twice', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    polishSettings:', '      humanize: true', '      humanize: false'), { line: 5, entry: 'articles[0] "best trail shoes"', field: 'polishSettings.humanize' }, 'on lines 4 and 5'),
  manifest('a key given twice in a JSON entry', 'articles.json', lines('{"articles": [', '  {"keyword": "best trail shoes",', '   "title": "Trail",', '   "title": "Shoes"}', ']}'), { line: 4, entry: 'articles[0] "best trail shoes"', field: 'title' }, 'appears twice in the same object, on lines 3 and 4'),
  manifest('a key given twice in JSON defaults', 'articles.json', lines('{"defaults": {', '  "language": "German",', '  "language": "French"},', ' "articles": ["best trail shoes"]}'), { line: 3, entry: 'defaults', field: 'language' }, 'on lines 2 and 3'),
];

/** The site's own fields: a `data:` field named like a field the loader writes would hide it, so every command refuses it before paying. */
const siteFields: BadInput[] = [
  manifest('a data field named like a built-in entry field', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    data: { title: Trail shoes }'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'data.title' }, 'clashes with the built-in entry field `title`'),
  manifest('a default data field named like a built-in entry field', 'articles.json', lines('{"defaults": {"data": {"slug": "shoes"}},', ' "articles": ["best trail shoes"]}'), { line: 1, entry: 'defaults', field: 'data.slug' }, 'clashes with the built-in entry field `slug`'),
  manifest('a data column named like a built-in entry field', 'articles.csv', lines('keyword,data.description', 'best trail shoes,Shoes'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'data.description' }, 'clashes with the built-in entry field `description`'),
];

/** The publishing cadence (`schedule`): refused before any request, naming defaults or the entry and the member. */
const schedule: BadInput[] = [
  manifest('a schedule whose start is not a date', 'articles.yaml', lines('defaults:', '  schedule:', '    start: next monday', '    every: 2d', 'articles:', '  - best trail shoes'), { line: 3, entry: 'defaults', field: 'schedule.start' }, '"next monday" is not a date', 'YYYY-MM-DD'),
  manifest('a schedule whose start is not a day of the calendar', 'articles.json', lines('{"defaults": {"schedule": {"start": "2026-02-30", "every": "1d"}},', ' "articles": ["best trail shoes"]}'), { line: 1, entry: 'defaults', field: 'schedule.start' }, 'is not a date of the calendar'),
  manifest('a schedule with a zero interval on an entry', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    schedule: { start: 2026-12-01, every: 0d }'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'schedule.every' }, '"0d" is not above zero'),
  manifest('a schedule with a negative interval', 'articles.json', lines('{"defaults": {"schedule": {"start": "2026-12-01",', '  "every": "-1w"}},', ' "articles": ["best trail shoes"]}'), { line: 2, entry: 'defaults', field: 'schedule.every' }, '"-1w" is not above zero'),
  manifest('a schedule whose interval is not a duration', 'articles.yaml', lines('defaults:', '  schedule: { start: 2026-12-01, every: fortnightly }', 'articles:', '  - best trail shoes'), { line: 2, entry: 'defaults', field: 'schedule.every' }, '"fortnightly" is not a duration', '2w'),
  manifest('a schedule in an unknown time zone', 'articles.yaml', lines('defaults:', '  schedule:', '    start: 2026-12-01', '    every: 1d', '    timezone: Europe/Atlantis', 'articles:', '  - best trail shoes'), { line: 5, entry: 'defaults', field: 'schedule.timezone' }, '"Europe/Atlantis" is not a time zone', 'IANA name'),
  manifest('a schedule with a time of day that is not one', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    schedule: { start: 2026-12-01, every: 1d, at: "9am" }'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'schedule.at' }, '"9am" is not a time of day', 'HH:MM'),
  manifest('a schedule that is a single value', 'articles.yaml', lines('defaults:', '  schedule: 2d', 'articles:', '  - best trail shoes'), { line: 2, entry: 'defaults', field: 'schedule' }, 'must be a mapping with start and every'),
];

/** The calendar's `refreshAfter`: a value that is not a duration is refused, naming `defaults` or the entry, before anything is paid. */
const refreshAfter: BadInput[] = [
  manifest('a refreshAfter default that is not a duration', 'articles.yaml', lines('defaults:', '  refreshAfter: soon', 'articles:', '  - best trail shoes'), { line: 2, entry: 'defaults', field: 'refreshAfter' }, '"soon" is not a duration', '90s, 30m, 12h, 30d, 2w or 6mo'),
  manifest('a zero refreshAfter on an entry', 'articles.json', lines('{"articles": [', '  {"keyword": "best trail shoes", "refreshAfter": "0d"}', ']}'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'refreshAfter' }, '"0d" is not a duration; write a number above zero and a unit'),
  manifest('a refreshAfter column in years', 'articles.csv', lines('keyword,refreshAfter', 'best trail shoes,1y'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'refreshAfter' }, '"1y" is not a duration'),
  manifest('a refreshAfter that is a mapping', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    refreshAfter: { days: 30 }'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'refreshAfter' }, 'must be a duration written as text'),
];

/** Encodings: UTF-16 with a BOM is read in every format; anything else is named and refused. */
const encodings: BadInput[] = [
  manifest('a Latin-1 YAML file', 'articles.yaml', latin1(lines('articles:', '  - best trail shoes', '  - Größe Schuhe')), { line: 3 }, 'is not UTF-8', 'byte 0xF6', 'Windows-1252 or Latin-1', '"ö"', 'Save it as UTF-8'),
  manifest('a Windows-1252 CSV export', 'articles.csv', latin1(lines('keyword', 'best trail shoes', '\x93quoted\x94 shoes')), { line: 3 }, 'byte 0x93', 'looks like Windows-1252', '"“"', 'CSV UTF-8'),
  manifest('UTF-16 without a BOM', 'articles.yaml', Buffer.from(lines('articles:', '  - best trail shoes'), 'utf16le'), {}, 'UTF-16 (little-endian) without a byte-order mark', 'Save it as UTF-8'),
  manifest('big-endian UTF-16 without a BOM', 'articles.csv', Buffer.from(lines('keyword', 'best trail shoes'), 'utf16le').swap16(), {}, 'UTF-16 (big-endian)', 'Save it as UTF-8'),
  manifest('a UTF-16 tab-separated export with a BOM, read, with a number for a keyword', 'articles.csv', utf16le('Keyword\t#Currency\r\nGröße Schuhe\tEUR\r\n2400\tEUR\r\n'), { line: 3, entry: 'articles[1]', field: 'keyword' }, ONLY_A_NUMBER),
  manifest('big-endian UTF-16 YAML with a BOM, read, with a bad field', 'articles.yaml', utf16be(lines('articles:', '  - Größe Schuhe', '  - keyword: best trail shoes', '    numberOfSections: 0')), { line: 4, entry: 'articles[1] "best trail shoes"', field: 'numberOfSections' }, 'must be 1 or more'),
  manifest('UTF-16 JSON with a BOM, read, with a bidi control', 'articles.json', utf16le('{"articles": ["Größe Schuhe", "best \u202Etrail shoes"]}'), { line: 1, entry: 'articles[1]', field: 'keyword' }, `${BIDI} U+202E`),
  manifest('UTF-16 with a BOM, cut in the middle of a character', 'articles.csv', Buffer.concat([utf16le(lines('keyword', 'best trail shoes')), Buffer.from([0x41])]), {}, 'ends in the middle of a character', 'Save it as UTF-8'),
  manifest('UTF-32 with a BOM', 'articles.yaml', Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x00]), Buffer.from('a\0\0\0', 'latin1')]), {}, 'is UTF-32', 'Save it as UTF-8'),
  manifest('a UTF-8 BOM before Latin-1 text', 'articles.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), latin1(lines('keyword', 'Größe Schuhe'))]), { line: 2 }, 'is not UTF-8', 'Windows-1252 or Latin-1'),
  manifest('UTF-8 joined with Latin-1', 'articles.yaml', Buffer.concat([Buffer.from(lines('articles:', '  - Größe Schuhe')), latin1(lines('  - Gr\xf6\xdfe Stiefel'))]), { line: 3 }, 'mixes two encodings'),
];

/** CSV: delimiters, the keyword column, row lengths, keywords that are numbers. */
const csv: BadInput[] = [
  manifest('a sep=; line, then a short row', 'articles.csv', lines('sep=;', 'keyword;title', 'best trail shoes;Trail', 'hiking boots'), { line: 4, entry: 'articles[1] "hiking boots"' }, 'has 1 cell but the header has 2', '";" is missing'),
  manifest('a sep= line naming a tab, then a long row', 'articles.csv', lines('sep=\t', 'keyword\ttitle', 'best trail shoes\tTrail\tShoes'), { line: 3, entry: 'articles[0] "best trail shoes"' }, 'has 3 cells but the header has 2', 'quote any cell that contains a tab'),
  manifest('a sep=| line, then a number for a keyword', 'articles.csv', lines('sep=|', 'keyword|title', 'best trail shoes|Trail', '880|Volume'), { line: 4, entry: 'articles[1] "880"', field: 'keyword' }, ONLY_A_NUMBER),
  manifest('a quoted "sep=;" line, then a short row', 'articles.csv', lines('"sep=;"', 'keyword;title;language', 'best trail shoes;Trail'), { line: 3, entry: 'articles[0] "best trail shoes"' }, 'has 2 cells but the header has 3'),
  manifest('semicolons detected, with a misspelt column', 'articles.csv', lines('keyword;numRetailProdcuts;articleType', 'best trail shoes;12;retail_product_roundup'), { line: 1, entry: 'header', field: 'numRetailProdcuts' }, 'did you mean "numRetailProducts"?'),
  manifest('tabs detected, with a number for a keyword', 'articles.csv', lines('keyword\tSearch Volume', '2400\t880'), { line: 1, entry: 'header', field: 'Search Volume' }, 'start its header with #', 'articles[0] "2400" → keyword: is only a number'),
  manifest('no keyword column: the columns are listed', 'articles.csv', lines('Search Volume,Kw', '2400,best trail shoes'), { line: 1, entry: 'header', field: 'keyword' }, 'no column is named "keyword"', '"Search Volume", "Kw"', 'name the column that holds the keywords "keyword"'),
  manifest('no keyword column, numbers first: never guessed', 'articles.csv', lines('Volume,Phrase', '2400,best trail shoes', '880,hiking boots'), { line: 1, entry: 'header', field: 'keyword' }, '"Volume", "Phrase"'),
  manifest('a short row', 'articles.csv', lines('keyword,title,language', 'best trail shoes,Trail,English', 'hiking boots,Boots'), { line: 3, entry: 'articles[1] "hiking boots"' }, 'has 2 cells but the header has 3'),
  manifest('a long row', 'articles.csv', lines('keyword,title', 'best trail shoes,Trail', 'hiking boots,Boots, for winter'), { line: 3, entry: 'articles[1] "hiking boots"' }, 'has 3 cells but the header has 2', 'quote any cell that contains ","'),
  manifest('a keyword that is a whole number', 'articles.csv', lines('keyword,title', '2400,Volume'), { line: 2, entry: 'articles[0] "2400"', field: 'keyword' }, ONLY_A_NUMBER, 'not the search volume'),
  manifest('a keyword that is a decimal number', 'articles.csv', lines('keyword,title', 'best trail shoes,Trail', '1.5,CPC'), { line: 3, entry: 'articles[1] "1.5"', field: 'keyword' }, ONLY_A_NUMBER),
  manifest('a keyword that is a number with a thousands separator', 'articles.csv', lines('keyword,title', '"1,200",Volume'), { line: 2, entry: 'articles[0] "1,200"', field: 'keyword' }, ONLY_A_NUMBER),
  manifest('a keyword that is a percentage', 'articles.csv', lines('keyword;title', 'best trail shoes;Trail', '12%;Difficulty'), { line: 3, entry: 'articles[1] "12%"', field: 'keyword' }, ONLY_A_NUMBER),
  manifest('a keyword that is a number in German notation', 'articles.csv', lines('keyword;title', '1.200,5;Volume'), { line: 2, entry: 'articles[0] "1.200,5"', field: 'keyword' }, ONLY_A_NUMBER),
];

/** Several languages (docs/languages.md): each mistake is one error naming the entry and field, before any request. */
const languages: BadInput[] = [
  manifest('the same language twice in one entry', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    languages: [English, German, german]'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'languages' }, 'lists "german" twice'),
  manifest('a keyword for a language not in languages', 'articles.yaml', lines('articles:', '  - keyword: { English: best trail shoes, French: chaussures de trail }', '    languages: [English, German]'), { line: 2, entry: 'articles[0]', field: 'keyword.French' }, '"French", which is not in `languages`'),
  manifest('a title column for a language not in languages', 'articles.csv', lines('keyword,languages,title.Spanish', 'best trail shoes,English; German,Zapatillas'), { line: 2, entry: 'articles[0] "best trail shoes"', field: 'title.Spanish' }, '"Spanish", which is not in `languages`'),
  manifest('two entries whose ids clash in one locale', 'articles.yaml', lines('defaults:', '  languages: [English, German]', 'articles:', '  - keyword: { English: trail shoes, German: Laufschuhe }', '  - keyword: { English: running shoes, German: laufschuhe! }'), { line: 5, entry: 'articles[1] "laufschuhe!"', field: 'slug' }, '"de/laufschuhe" is also the id, in German,', 'articles[0] "Laufschuhe" in German'),
  manifest('an unknown locale code', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    languages: [English, Klingon]', '    locale: { Klingon: xx-QQ }'), { line: 4, entry: 'articles[0] "best trail shoes"', field: 'locale.Klingon' }, '"xx-QQ" names no known language'),
  manifest('a language with neither a table entry nor a locale', 'articles.yaml', lines('articles:', '  - keyword: best trail shoes', '    languages: [English, Elvish]'), { line: 3, entry: 'articles[0] "best trail shoes"', field: 'languages' }, '"Elvish", which the locale table lacks', 'locale: { Elvish: <BCP 47 code> }'),
];

const CASES: BadInput[] = [...brokenText, ...bidi, ...invisible, ...controls, ...zalgo, ...formulas, ...yaml, ...siteFields, ...schedule, ...refreshAfter, ...encodings, ...csv, ...languages];

/** Every file of a directory tree with a hash of its bytes: a run that changes nothing leaves it equal. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = createHash('sha256').update(await readFile(file)).digest('hex');
  }
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
}

/** Every so many cases, one also runs through the bin in a child process (the first case, then a spread over the kinds). */
const SAMPLE_EVERY = 12;

interface Outcome {
  runs: { args: string[]; json: boolean; result: CliResult; requests: number; bin?: { result: CliResult; requests: number } }[];
  lockBefore: Buffer;
  lockAfter: Buffer;
  before: Record<string, string>;
  after: Record<string, string>;
}

let template: string;
const outcomes = new Map<string, Outcome>();

/** Runs one case in its own copy of the site, against its own emulator, so every request it makes is its own. */
async function runCase(input: BadInput): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'aal-bad-input-'));
  const emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS });
  try {
    await cp(template, dir, { recursive: true });
    for (const [name, content] of Object.entries(input.files)) await writeFile(path.join(dir, name), content);
    const lockBefore = await readFile(path.join(dir, 'articles.lock.json'));
    const before = await snapshot(dir);
    const runs: Outcome['runs'] = [];
    for (const { command, json } of RUNS) {
      const args = [command, ...(input.args ?? ['-m', Object.keys(input.files)[0]!]), ...(json ? ['--json'] : [])];
      const requests = emulator.requests.length;
      const result = await runCliInProcess(args, { cwd: dir, env: serviceEnv(emulator.url) });
      runs.push({ args, json, result, requests: emulator.requests.length - requests });
      if (CASES.indexOf(input) % SAMPLE_EVERY !== 0) continue;
      const binRequests = emulator.requests.length;
      const binResult = await runCli(args, { cwd: dir, env: serviceEnv(emulator.url) });
      runs.at(-1)!.bin = { result: binResult, requests: emulator.requests.length - binRequests };
    }
    outcomes.set(input.name, { runs, lockBefore, lockAfter: await readFile(path.join(dir, 'articles.lock.json')), before, after: await snapshot(dir) });
  } finally {
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** What is wrong with one run of one case; empty when it is right. */
function runFailures(input: BadInput, run: Outcome['runs'][number]): string[] {
  const { result, json, requests } = run;
  const all = `${result.stdout}${result.stderr}`;
  const failures = [
    result.code === (input.exitCode ?? 2) ? '' : `exit ${result.code}, not ${input.exitCode ?? 2}`,
    /^\s+at /m.test(all) ? 'printed a stack trace' : '',
    /unexpected error/i.test(all) ? 'called it an unexpected error' : '',
    requests === 0 ? '' : `made ${requests} requests`,
  ];
  if (!json) {
    failures.push(...input.says.filter((fragment) => !result.stderr.includes(fragment)).map((fragment) => `stderr does not say ${JSON.stringify(fragment)}`));
    return failures.filter((failure) => failure !== '');
  }
  let document: { exitCode?: number; error?: { code?: string; message?: string; problems?: Record<string, unknown>[] } };
  try {
    document = JSON.parse(result.stdout) as typeof document;
  } catch {
    return [...failures, `stdout is not one JSON document: ${result.stdout.slice(0, 200)}`].filter((failure) => failure !== '');
  }
  const error = document.error ?? {};
  failures.push(document.exitCode === result.code ? '' : `the document says exit ${document.exitCode}`);
  failures.push(error.code === (input.code ?? 'invalid_manifest') ? '' : `error code ${error.code}`);
  // The message in JSON is the same text; the file is named there as in the terminal.
  failures.push(...input.says.filter((fragment) => !error.message?.includes(fragment)).map((fragment) => `the JSON message does not say ${JSON.stringify(fragment)}`));
  if (input.problem !== undefined) {
    const wanted = input.problem;
    const found = (error.problems ?? []).some((problem) => Object.entries(wanted).every(([key, value]) => problem[key] === value));
    failures.push(found ? '' : `no problem ${JSON.stringify(wanted)} in ${JSON.stringify(error.problems)}`);
  }
  return failures.filter((failure) => failure !== '');
}

describe('the bad-input corpus, through the CLI', () => {
  beforeAll(async () => {
    await buildCli();
    // A finished two-article site, as committed: manifest, lock file, cache.
    const emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS });
    try {
      template = await mkdtemp(path.join(tmpdir(), 'aal-bad-input-site-'));
      await writeFile(path.join(template, 'articles.yaml'), manifestYaml(['corpus first article', 'corpus second article']));
      const synced = await runCli(['sync', '--poll-interval', '20ms'], { cwd: template, env: serviceEnv(emulator.url) });
      expect(synced.code, synced.stderr).toBe(0);
    } finally {
      await emulator.stop();
    }
    const started = Date.now();
    const limit = pLimit(3);
    await Promise.all(CASES.map((input) => limit(() => runCase(input))));
    const runs = [...outcomes.values()].reduce((sum, outcome) => sum + outcome.runs.length, 0);
    const binRuns = [...outcomes.values()].reduce((sum, outcome) => sum + outcome.runs.filter((run) => run.bin).length, 0);
    console.log(`[bad-input corpus] ${CASES.length} inputs, ${runs} runs (${binRuns} of them through the bin too) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 600_000);

  afterAll(async () => {
    if (template !== undefined) await rm(template, { recursive: true, force: true });
  });

  it('should hold at least 60 bad inputs, each with a unique name', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CASES.map((input) => input.name)).size).toBe(CASES.length);
  });

  it('should answer every input with its exit code and one message naming file, entry and field, with no stack and no request, in text and in --json', () => {
    const failures: string[] = [];
    for (const input of CASES) {
      const outcome = outcomes.get(input.name);
      if (outcome === undefined) {
        failures.push(`${input.name}: did not run`);
        continue;
      }
      for (const run of outcome.runs) {
        for (const [how, result, requests] of [['', run.result, run.requests], ...(run.bin ? [[' through the bin', run.bin.result, run.bin.requests] as const] : [])] as const) {
          const wrong = runFailures(input, { ...run, result, requests });
          if (wrong.length > 0) failures.push(`${input.name} (${run.args.join(' ')}${how}): ${wrong.join('; ')}\n${(result.stderr || result.stdout).slice(0, 700)}`);
          expectNoSecret(result);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('should answer alike through the bin in a child process and through its main in this one, in every sampled case', () => {
    const sampled = CASES.filter((_, index) => index % SAMPLE_EVERY === 0);
    expect(sampled.length).toBeGreaterThanOrEqual(8);
    for (const input of sampled) {
      for (const run of outcomes.get(input.name)?.runs ?? []) {
        expect(run.bin, `${input.name}: not run through the bin`).toBeDefined();
        const { code, stdout, stderr } = run.bin!.result;
        expect({ code, stdout, stderr }, `${input.name} (${run.args.join(' ')})`).toEqual({ code: run.result.code, stdout: run.result.stdout, stderr: run.result.stderr });
      }
    }
    expect(sampled.every((input) => outcomes.get(input.name)?.runs.length === RUNS.length)).toBe(true);
  });

  it('should leave the lock file byte-identical and every other file of the site unchanged', () => {
    const changed = CASES.filter((input) => {
      const outcome = outcomes.get(input.name);
      return outcome === undefined || !outcome.lockBefore.equals(outcome.lockAfter) || JSON.stringify(outcome.before) !== JSON.stringify(outcome.after);
    });
    expect(changed.map((input) => input.name)).toEqual([]);
  });
});
