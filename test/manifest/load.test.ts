// loadManifest on real files in a temp dir: missing, a directory, a device or a pipe, too large, UTF-16 and UTF-8 exports, relative paths.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, open, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifest, ManifestError, MAX_MANIFEST_BYTES, parseManifest } from '../../src/manifest/index.js';
import { readAtMost } from '../../src/manifest/load-manifest.js';

const posix = process.platform !== 'win32';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'manifest-load-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function refusal(run: () => Promise<unknown>): Promise<ManifestError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ManifestError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('loadManifest', () => {
  it('should say that a missing file does not exist, with its absolute path', async () => {
    const file = path.join(dir, 'missing.yaml');
    const error = await refusal(() => loadManifest(file));
    expect(error.message).toContain(`${file}: does not exist`);
    expect(error.problems[0]?.file).toBe(file);
  });

  it('should refuse a directory', async () => {
    const file = path.join(dir, 'folder.yaml');
    await mkdir(file);
    expect((await refusal(() => loadManifest(file))).message).toContain('is a directory');
  });

  it.runIf(posix)('should refuse a symlink to a character device (/dev/zero) as not a regular file, without reading it', async () => {
    const file = path.join(dir, 'zero.yaml');
    await symlink('/dev/zero', file);
    const error = await refusal(() => loadManifest(file));
    expect(error.message).toContain(`${file}: is not a regular file (a device, a pipe or a socket)`);
  });

  it.runIf(posix)('should refuse a named pipe without waiting for a writer', async () => {
    const file = path.join(dir, 'pipe.csv');
    execFileSync('mkfifo', [file]);
    expect((await refusal(() => loadManifest(file))).message).toContain('is not a regular file');
  });

  it.runIf(posix)('should read at most the limit plus one byte from a source whose size stat() does not tell', async () => {
    const handle = await open('/dev/zero');
    try {
      expect((await readAtMost(handle, 100_000)).length).toBe(100_001);
    } finally {
      await handle.close();
    }
  });

  it('should refuse an unknown extension before reading anything', async () => {
    const error = await refusal(() => loadManifest(path.join(dir, 'missing.toml')));
    expect(error.message).toContain('has the extension ".toml"; a manifest is .yaml, .yml, .json or .csv');
  });

  it('should refuse a file over 5 MiB without reading it', async () => {
    const file = path.join(dir, 'huge.yaml');
    await writeFile(file, '');
    await truncate(file, MAX_MANIFEST_BYTES + 1); // sparse: no 5 MiB written
    expect((await refusal(() => loadManifest(file))).message).toContain('over the 5 MiB limit');
  });

  it('should refuse text over 5 MiB given to parseManifest', async () => {
    const text = `articles:\n  - ${'a'.repeat(MAX_MANIFEST_BYTES)}\n`;
    expect((await refusal(async () => parseManifest(text, 'big.yaml'))).message).toContain('over the 5 MiB limit');
  });

  it('should read a UTF-16LE tab-separated export with a BOM (Google Keyword Planner, Excel "Unicode text")', async () => {
    const file = path.join(dir, 'planner.csv');
    const text = '\uFEFFKeyword\tarticleType\r\nGröße Schuhe\tlisticle\r\n東京 ラーメン\t\r\n';
    await writeFile(file, Buffer.from(text, 'utf16le'));
    const { specs } = await loadManifest(file);
    expect(specs.map((spec) => [spec.keyword, spec.slug, spec.request.articleType, spec.source.line])).toEqual([
      ['Größe Schuhe', 'groesse-schuhe', 'listicle', 2],
      ['東京 ラーメン', '東京-ラーメン', 'blog_post', 3],
    ]);
  });

  it('should read UTF-16BE with a BOM', async () => {
    const file = path.join(dir, 'big-endian.yaml');
    await writeFile(file, Buffer.from('\uFEFFarticles:\n  - Größe Schuhe\n', 'utf16le').swap16());
    expect((await loadManifest(file)).specs[0]?.keyword).toBe('Größe Schuhe');
  });

  it('should read UTF-16 with a BOM in every format: YAML, JSON and a sep=; CSV, with lines as in the file', async () => {
    const utf16 = (text: string) => Buffer.from(`\uFEFF${text}`, 'utf16le');
    const cases: [string, string][] = [
      ['unicode.yaml', 'articles:\r\n  - Größe Schuhe\r\n  - 東京 ラーメン\r\n'],
      ['unicode.json', '{\n"articles": [\n"Größe Schuhe",\n"東京 ラーメン"]}'],
      ['unicode.csv', 'sep=;\r\nkeyword;title\r\nGröße Schuhe;Größen\r\n東京 ラーメン;ラーメン\r\n'],
    ];
    for (const [name, text] of cases) {
      await writeFile(path.join(dir, name), utf16(text));
      const { specs } = await loadManifest(path.join(dir, name));
      expect(specs.map((spec) => [spec.keyword, spec.source.line]), name).toEqual([
        ['Größe Schuhe', name.endsWith('.json') ? 3 : name.endsWith('.csv') ? 3 : 2],
        ['東京 ラーメン', name.endsWith('.json') ? 4 : name.endsWith('.csv') ? 4 : 3],
      ]);
    }
  });

  it.each([
    ['Latin-1', Buffer.from('articles:\n  - best shoes\n  - Gr\xf6\xdfe\n', 'latin1'), ['line 3', 'byte 0xF6 at byte offset 31', 'Windows-1252 or Latin-1', '"ö"', 'Save it as UTF-8']],
    ['Windows-1252', Buffer.from('articles:\n  - \x93best\x94 shoes\n', 'latin1'), ['byte 0x93 at byte offset 14', 'looks like Windows-1252 (it would be "“"']],
    ['UTF-8 joined with Latin-1', Buffer.concat([Buffer.from('articles:\n  - Größe\n'), Buffer.from('  - Gr\xf6\xdfe\n', 'latin1')]), ['mixes two encodings']],
    ['an overlong UTF-8 form', Buffer.from([...Buffer.from('articles:\n  - a'), 0xc0, 0xaf, 0x0a]), ['byte 0xC0']],
    ['an encoded surrogate (CESU-8)', Buffer.from([...Buffer.from('articles:\n  - a'), 0xed, 0xa0, 0x80, 0x0a]), ['byte 0xED']],
    ['UTF-16 with a BOM cut in a character', Buffer.concat([Buffer.from('\uFEFFarticles:\n  - a\n', 'utf16le'), Buffer.from([0x61])]), ['UTF-16 (little-endian) but ends in the middle of a character']],
    ['UTF-32 with a BOM', Buffer.from([0xff, 0xfe, 0, 0, 0x61, 0, 0, 0]), ['is UTF-32']],
    ['big-endian UTF-32 with a BOM', Buffer.from([0, 0, 0xfe, 0xff, 0, 0, 0, 0x61]), ['is UTF-32']],
  ])('should refuse %s, naming what it found and saying to save it as UTF-8', async (_name, bytes, says) => {
    const file = path.join(dir, 'encoding.yaml');
    await writeFile(file, bytes);
    const error = await refusal(() => loadManifest(file));
    expect(error.problems).toHaveLength(1);
    const shown = `${error.message} line ${error.problems[0]?.line}`;
    for (const fragment of says) expect(shown).toContain(fragment);
    expect(error.message).toContain('Save it as UTF-8');
  });

  it('should resolve a relative path to the absolute one in Manifest.file', async () => {
    const file = path.join(dir, 'relative.yml');
    await writeFile(file, 'articles:\n  - best running shoes\n');
    const manifest = await loadManifest(path.relative(process.cwd(), file));
    expect(manifest.file).toBe(file);
    expect(manifest.specs[0]?.source.file).toBe(file);
  });

  it('should accept a manifest with an empty list of articles', async () => {
    const file = path.join(dir, 'none.yaml');
    await writeFile(file, 'articles: []\n');
    expect((await loadManifest(file)).specs).toEqual([]);
  });

  it('should accept a CSV with a header row only', async () => {
    const file = path.join(dir, 'header-only.csv');
    await writeFile(file, 'keyword,title\n');
    expect((await loadManifest(file)).specs).toEqual([]);
  });
});
