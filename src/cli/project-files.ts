// The manifest a command works on, read and checked, with the lock file and cache that go with it.
import { formatManifestProblem, loadManifest, type Manifest } from '../manifest/index.js';
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
  const manifest = await loadManifest(manifestFile);
  // A wrong `quality:` is refused by every command, as the build refuses it: before any request.
  manifestQuality(manifest);
  // Allowed, but probably not meant (a default some entries take without effect): said on stderr, so --json stays one document.
  for (const warning of manifest.warnings) output.err(`warning: ${formatManifestProblem(warning)}`);
  return { manifest, ...locateLock(cwd, flags.string('lock-file'), manifest.file) };
}

/**
 * The lock file first: with `--lock-file` the manifest is optional (read when there is one, to
 * say which entries it still lists); without it, the manifest is required to find the lock file.
 */
export async function openLockProject(cwd: string, flags: ParsedFlags): Promise<ProjectFiles<Manifest | undefined>> {
  const lockFlag = flags.string('lock-file');
  const manifestFile = await locateManifest(cwd, flags.string('manifest'), { required: lockFlag === undefined });
  const manifest = manifestFile === undefined ? undefined : await loadManifest(manifestFile);
  if (manifest !== undefined) manifestQuality(manifest);
  return { manifest, ...locateLock(cwd, lockFlag, manifest?.file) };
}
