// The ManifestError a manifest's text gets from parseManifest, for tests that look at what it says; a manifest that is accepted fails the test.
import { ManifestError, parseManifest } from '../../src/manifest/index.js';

export function refusal(text: string, file = 'articles.yaml'): ManifestError {
  try {
    parseManifest(text, file);
  } catch (error) {
    if (error instanceof ManifestError) return error;
    throw error;
  }
  throw new Error(`the manifest ${file} was accepted`);
}
