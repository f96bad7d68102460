// What the hit scanner hands on, and the few byte tests it makes of a response body.
import { Buffer } from "node:buffer";

/** One element of the array, as bytes of the scanner's current window (valid during the callback). */
export interface ScannedElement {
  bytes: Buffer;
  start: number;
  end: number;
  /** The element's `_source` object, when it has one at its top level (-1 otherwise). */
  sourceStart: number;
  sourceEnd: number;
  /** No whitespace outside strings: the bytes are as compact as `JSON.stringify` writes them. */
  compact: boolean;
  /** `take` was offered the element whole, within one window, and declined it. */
  offered: boolean;
}

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const SOURCE_KEY = Buffer.from("_source");

/** Whether the key bytes [from, to) hold an escape: a few bytes, the hit's own keys only. */
export function hasEscape(bytes: Buffer, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (bytes[k] === BACKSLASH) return true;
  return false;
}

/** Where the string whose text starts at `from` closes (its quote), or `length` when it goes on past it. */
export function closingQuote(bytes: Buffer, from: number, length: number): number {
  let j = from;
  for (;;) {
    while (j < length && bytes[j] !== QUOTE && bytes[j] !== BACKSLASH) j++;
    if (j >= length || bytes[j] === QUOTE) return j;
    j += 2; // an escape: skip the escaped character
  }
}

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
