// The time now as the records write it: ISO 8601 in UTC.

export function nowIso(): string {
  return new Date().toISOString();
}
