// The string rules of JSON over bytes: escapes and UTF-8 checked, and a string's text decoded exactly
// as JSON.parse decodes it (escapes, `\u` code units one by one, so a lone surrogate stays one).
import { Buffer } from "node:buffer";

const BACKSLASH = 0x5c;

/** Node's own slicers, which skip `toString`'s argument handling (a tenth of a short string's cost). */
export interface SlicingBuffer extends Buffer {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

/** `bytes` as a Buffer over the same memory (no copy). */
export function slicingBuffer(bytes: Uint8Array): SlicingBuffer {
  return (
    Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  ) as SlicingBuffer;
}

const ESCAPED: Readonly<Record<number, string>> = {
  0x22: '"',
  0x5c: "\\",
  0x2f: "/",
  0x62: "\b",
  0x66: "\f",
  0x6e: "\n",
  0x72: "\r",
  0x74: "\t",
};

/** The value of a hex digit, or -1. */
function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The code unit of the checked `\uXXXX` escape whose backslash is at `at`. */
export function escapedUnit(bytes: Uint8Array, at: number): number {
  let unit = 0;
  for (let k = at + 2; k < at + 6; k++) unit = unit * 16 + hexDigit(bytes[k] as number);
  return unit;
}

/** The escape whose backslash is at `at`; returns the position after it, or -1 when it is not JSON. */
export function skipEscape(bytes: Uint8Array, at: number, end: number): number {
  const kind = at + 1 < end ? (bytes[at + 1] as number) : -1;
  if (kind !== 0x75) return ESCAPED[kind] === undefined ? -1 : at + 2;
  if (at + 6 > end) return -1;
  for (let k = at + 2; k < at + 6; k++) if (hexDigit(bytes[k] as number) < 0) return -1;
  return at + 6;
}

/**
 * The UTF-8 sequence at `at`, which starts with `lead` (over 0x7f); returns the position after it, or
 * -1 for what is not UTF-8: overlong forms, surrogates, values past U+10FFFF, a sequence cut short.
 */
export function skipUtf8(bytes: Uint8Array, at: number, end: number, lead: number): number {
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  } else return -1;
  if (at + length > end) return -1;
  const second = bytes[at + 1] as number;
  if (second < low || second > high) return -1;
  for (let k = at + 2; k < at + length; k++) {
    const byte = bytes[k] as number;
    if (byte < 0x80 || byte > 0xbf) return -1;
  }
  return at + length;
}

/**
 * The text of a checked string between its quotes `from` and `to`. Without escapes it is one slice,
 * Latin-1 when no byte is over 0x7f (ASCII, the cheapest), else UTF-8.
 */
export function decodeString(
  bytes: SlicingBuffer,
  from: number,
  to: number,
  escaped: boolean,
  wide: boolean,
): string {
  if (!escaped) return wide ? bytes.utf8Slice(from, to) : bytes.latin1Slice(from, to);
  let text = "";
  let run = from;
  let i = from;
  while (i < to) {
    if (bytes[i] !== BACKSLASH) {
      i++;
      continue;
    }
    // The bytes between escapes split at a backslash (ASCII), so each run is whole UTF-8.
    if (i > run) text += bytes.utf8Slice(run, i);
    const kind = bytes[i + 1] as number;
    if (kind === 0x75) {
      text += String.fromCharCode(escapedUnit(bytes, i));
      i += 6;
    } else {
      text += ESCAPED[kind] ?? "";
      i += 2;
    }
    run = i;
  }
  return run < to ? text + bytes.utf8Slice(run, to) : text;
}
