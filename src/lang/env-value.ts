// An environment variable's value as settings read it: trimmed, and unset when empty.

/** A variable set to "" or to spaces counts as unset, as if it were not there. */
export function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}
