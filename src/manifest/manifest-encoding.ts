// A manifest's bytes as text: UTF-8, or UTF-16 with a byte-order mark; any other encoding is refused with what it looks like and "save it as UTF-8".
import { isUtf8 } from 'node:buffer';
import path from 'node:path';

/** Why the bytes are not text we can read, and where; the caller makes it a problem of the file. */
export interface EncodingProblem {
  message: string;
  line?: number;
}

export type Decoded = { text: string } | { problem: EncodingProblem };

function saveAsUtf8(file: string): string {
  return path.extname(file).toLowerCase() === '.csv'
    ? 'Save it as UTF-8 (in Excel: "CSV UTF-8 (Comma delimited)")'
    : 'Save it as UTF-8 (editors offer the encoding when saving)';
}

/**
 * Decodes a manifest. Spreadsheet exports come as UTF-8, UTF-8 with a BOM, or UTF-16 with a BOM
 * (Excel "Unicode text", Google Keyword Planner), all read. UTF-32, UTF-16 without a BOM, and
 * legacy 8-bit encodings (Windows-1252, Latin-1) are refused: decoding them by guess could turn a
 * keyword into another one, paid for. A lone surrogate in UTF-16 is kept, for the text checks to
 * name its entry and field.
 */
export function decodeManifest(bytes: Buffer, file: string): Decoded {
  if (startsWith(bytes, [0xff, 0xfe, 0x00, 0x00]) || startsWith(bytes, [0x00, 0x00, 0xfe, 0xff])) {
    return { problem: { message: `is UTF-32, which is not read. ${saveAsUtf8(file)}` } };
  }
  const bom = startsWith(bytes, [0xff, 0xfe]) ? 'little-endian' : startsWith(bytes, [0xfe, 0xff]) ? 'big-endian' : undefined;
  if (bom !== undefined) {
    if (bytes.length % 2 === 1) {
      return { problem: { message: `is UTF-16 (${bom}) but ends in the middle of a character (an odd number of bytes): it was cut short, or is not UTF-16 after all. ${saveAsUtf8(file)}` } };
    }
    const units = Buffer.from(bytes.subarray(2));
    return { text: (bom === 'big-endian' ? units.swap16() : units).toString('utf16le') };
  }
  const utf16 = unmarkedUtf16(bytes);
  if (utf16 !== undefined) {
    return { problem: { message: `is UTF-16 (${utf16}) without a byte-order mark, so its encoding cannot be told for sure. ${saveAsUtf8(file)}` } };
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad === -1) return { text: bytes.toString('utf8') };
  const line = bytes.subarray(0, bad).filter((byte) => byte === 0x0a).length + 1;
  const byte = `0x${bytes[bad]!.toString(16).toUpperCase().padStart(2, '0')}`;
  return { problem: { line, message: `is not UTF-8 text: byte ${byte} at byte offset ${bad} is not UTF-8; ${legacyEncoding(bytes, bad)}. ${saveAsUtf8(file)}` } };
}

function startsWith(bytes: Buffer, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/** The offset of the first byte that does not start a well-formed UTF-8 sequence, or -1. */
function firstInvalidUtf8(bytes: Buffer): number {
  if (isUtf8(bytes)) return -1;
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index++;
      continue;
    }
    const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    // isUtf8 on the one sequence also refuses overlong forms, surrogates and code points past U+10FFFF.
    if (length === 0 || !isUtf8(bytes.subarray(index, index + length)) || index + length > bytes.length) return index;
    index += length;
  }
  return -1;
}

/** UTF-16 text without a BOM: ASCII characters leave a NUL byte beside each one, at even (big-endian) or odd (little-endian) offsets. */
function unmarkedUtf16(bytes: Buffer): 'little-endian' | 'big-endian' | undefined {
  const sample = bytes.subarray(0, 4096);
  if (sample.length < 4) return undefined;
  let even = 0;
  let odd = 0;
  for (let index = 0; index < sample.length; index++) if (sample[index] === 0) (index % 2 === 0 ? even++ : odd++);
  const half = sample.length / 2;
  if (odd > half * 0.4 && even < half * 0.05) return 'little-endian';
  if (even > half * 0.4 && odd < half * 0.05) return 'big-endian';
  return undefined;
}

// Windows-1252 above 0x7F: 0x80–0x9F are its own (undefined ones kept as C1 codes), 0xA0–0xFF are Latin-1. (Node 20's TextDecoder drops 0x80–0x9F.)
const WINDOWS_1252_80_9F = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

function windows1252(byte: number): string {
  return byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_80_9F[byte - 0x80]! : String.fromCharCode(byte);
}

/**
 * A guess at the encoding, for the message, with the first bad byte as that encoding would read it:
 * most such files are Windows-1252 or Latin-1 exports; text that is otherwise UTF-8 was joined
 * from files in two encodings.
 */
function legacyEncoding(bytes: Buffer, bad: number): string {
  const asWindows1252 = windows1252(bytes[bad]!);
  const shown = /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(asWindows1252) ? ` (it would be "${asWindows1252}" in Windows-1252)` : '';
  const bom = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  if (bytes.subarray(bom, bad).some((byte) => byte >= 0x80)) return `the text before it is UTF-8, so the file mixes two encodings${shown}`;
  // Bytes 0x80–0x9F are printable in Windows-1252 (€, “ ”, …) and control codes in ISO-8859-1.
  const windows = bytes.some((byte) => byte >= 0x80 && byte <= 0x9f);
  return `it looks like ${windows ? 'Windows-1252' : 'Windows-1252 or Latin-1'}${shown}`;
}
