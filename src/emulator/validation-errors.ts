// Turning schema issues into the 400 body's `fields`: one entry per offending field, named by path.
import type { z } from 'zod';

export interface FieldError {
  /** Dot path into the request body (`polishSettings.humanize`, `outline.0.title`); '' for the body itself. */
  path: string;
  message: string;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((part) => String(part)).join('.');
}

/** The part of a joined unrecognized-keys message about one key (messages are joined with `; "`). */
function messageForKey(message: string, key: string): string {
  const start = message.startsWith(`"${key}"`) ? 0 : message.indexOf(`; "${key}"`);
  if (start < 0) return `"${key}" is not a parameter here; remove it or check its spelling`;
  const from = start === 0 ? 0 : start + 2;
  const next = message.indexOf('; "', from + key.length + 2);
  return message.slice(from, next < 0 ? undefined : next);
}

/** One field entry per issue, and one per key of an unrecognized-keys issue. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  const fields: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const message = issue.keys.length === 1 && issue.message.includes(`"${key}"`) ? issue.message : messageForKey(issue.message, key);
        fields.push({ path: formatPath([...issue.path, key]), message: message.startsWith('Unrecognized key') ? `"${key}" is not a parameter here; remove it or check its spelling` : message });
      }
    } else {
      fields.push({ path: formatPath(issue.path), message: issue.message });
    }
  }
  return fields;
}

/** A one-line summary for the 400 body's `message`. */
export function summariseFields(fields: readonly FieldError[]): string {
  const listed = fields.slice(0, 5).map((field) => `${field.path === '' ? '(body)' : field.path}: ${field.message}`);
  const more = fields.length > 5 ? `; and ${fields.length - 5} more` : '';
  return `The request has ${fields.length === 1 ? 'an invalid field' : `${fields.length} invalid fields`}: ${listed.join('; ')}${more}.`;
}
