// Text from elsewhere (a service's progress line, its error message) as one line that a terminal, a log or a page
// shows as it is: no escape sequence can move the cursor, retitle the window or fake a line of ours.

/**
 * Control characters (escape, carriage return, line breaks, NUL, C1), the line and paragraph separators, and the
 * invisible marks that reorder what follows them (bidirectional overrides and isolates, U+FEFF).
 */
const HIDDEN = /[\p{Cc}\u2028\u2029\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069\uFEFF]+/gu;

/** `text` on one line, each run of hidden characters and white space one space, cut to `max` characters with "…". */
export function shownLine(text: string, max = 300): string {
  const line = text.replace(HIDDEN, ' ').replace(/\s+/g, ' ').trim();
  const characters = [...line];
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : line;
}
