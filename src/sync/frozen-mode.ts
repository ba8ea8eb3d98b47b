// The one rule for when frozen mode is on by default: on CI, like `npm ci`, so a build there never pays for an article.

/**
 * Whether a build should be frozen (never create, fail listing what would be created) when no
 * option says otherwise: `CI` is set to anything but an empty string, `0` or `false` (any case,
 * surrounding spaces ignored). CI services set it to `true` or `1`; `CI=false` turns it off.
 * The loader and the CLI both use this, so a build and `astro-article-loader sync` agree.
 */
export function frozenByDefault(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}
