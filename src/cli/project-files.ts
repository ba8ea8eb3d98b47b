// The manifest a command works on, read and checked, with the lock file and cache that go with it.
import { formatManifestProblem, loadManifest, withRecordedSlugs, type Manifest } from '../manifest/index.js';
import { recordedSlugs } from '../sync/index.js';
import { manifestQuality } from '../quality/manifest-quality.js';
import type { Output } from './output.js';
import type { ParsedFlags } from './command-line.js';
import { locateLock, locateManifest } from './manifest-location.js';

/** A manifest and its lock file: `--lock-file`, else next to the manifest. */
export interface ProjectFiles<M extends Manifest | undefined = Manifest> {
  manifest: M;
  lockFile: string;
  cacheDir: string;
}

/**
 * The manifest (`--manifest`, else the one conventional file in `cwd`) read and checked, and its
 * lock file: what plan, sync, prune and adopt work on. No manifest, or an invalid one, throws; the
 * manifest's warnings go to stderr.
 */
export async function openProject(cwd: string, flags: ParsedFlags, output: Output): Promise<ProjectFiles> {
  const manifestFile = (await locateManifest(cwd, flags.string('manifest'), { required: true }))!;
  const read = await loadManifest(manifestFile);
  // A wrong `quality:` is refused by every command, as the build refuses it: before any request.
  manifestQuality(read);
  // Allowed, but probably not meant (a default some entries take without effect): said on stderr, so --json stays one document.
  for (const warning of read.warnings) output.err(`warning: ${formatManifestProblem(warning)}`);
  const paths = locateLock(cwd, flags.string('lock-file'), read.file);
  return { manifest: await keptSlugs(read, paths.lockFile), ...paths };
}

/**
 * The manifest with the slugs its lock file records where the rules derive others now (`withRecordedSlugs`), as the
 * build does. A lock file that cannot be read keeps none here: the command reads it next and reports why.
 */
function keptSlugs(manifest: Manifest, lockFile: string): Promise<Manifest> {
  return withRecordedSlugs(manifest, () => recordedSlugs(lockFile).catch(() => new Set<string>()));
}

/**
 * The lock file first: with `--lock-file` the manifest is optional (read when there is one, to
 * say which entries it still lists); without it, the manifest is required to find the lock file.
 */
export async function openLockProject(cwd: string, flags: ParsedFlags): Promise<ProjectFiles<Manifest | undefined>> {
  const lockFlag = flags.string('lock-file');
  const manifestFile = await locateManifest(cwd, flags.string('manifest'), { required: lockFlag === undefined });
  const read = manifestFile === undefined ? undefined : await loadManifest(manifestFile);
  if (read !== undefined) manifestQuality(read);
  const paths = locateLock(cwd, lockFlag, read?.file);
  return { manifest: read === undefined ? undefined : await keptSlugs(read, paths.lockFile), ...paths };
}
