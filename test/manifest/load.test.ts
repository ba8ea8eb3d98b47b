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
