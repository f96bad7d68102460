// Checks JSON (RFC 8259) on UTF-8 bytes without building values: hit-bytes.ts reads a hit's own keys
// with it and lets it step over everything else. One pass, no allocation per value, positions in and
// out; a failure is a negative position, so every step returns one number.
import { Buffer } from "node:buffer";

/** Containers nested deeper than this are refused, so a hostile body cannot cost unbounded memory. */
export const MAX_JSON_DEPTH = 512;

/** JSON.parse would refuse the bytes too. */
export const SYNTAX = -1;
/** A byte sequence that is not UTF-8: shortest form, no surrogates, at most U+10FFFF. */
export const UTF8 = -2;
/** Nested deeper than MAX_JSON_DEPTH. */
export const DEPTH = -3;

export const QUOTE = 0x22;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
const BACKSLASH = 0x5c;
const LEVELS_IN_BITS = 31;

const table = (accepts: (c: number) => boolean): Uint8Array =>
  new Uint8Array(256).map((_, c) => (accepts(c) ? 1 : 0));
/** Characters that may follow a backslash, `u` aside. */
const ESCAPED = table((c) => '"\\/bfnrt'.includes(String.fromCharCode(c)));
const HEX = table((c) => /[0-9a-fA-F]/.test(String.fromCharCode(c)));
export const TRUE = Buffer.from("true");
export const FALSE = Buffer.from("false");
export const NULL = Buffer.from("null");

/** A reader over bytes[…, end): each step takes the position of a token and returns the one after it. */
export class JsonBytes {
  /** No whitespace was skipped so far. */
  compact = true;
  /** The string last read has an escape. */
  escaped = false;
  private text: Buffer | undefined;

  constructor(
    readonly bytes: Uint8Array,
    readonly end: number,
  ) {}

  /** The byte at i, or -1 past the end. */
  at(i: number): number {
    return i < this.end ? (this.bytes[i] as number) : -1;
  }

  space(i: number): number {
    const { bytes, end } = this;
    while (i < end) {
      const c = bytes[i] as number;
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
      this.compact = false;
      i++;
    }
    return i;
  }

  /** From the opening quote to after the closing one. */
  string(i: number): number {
    const { bytes, end } = this;
    this.escaped = false;
    i++;
    for (;;) {
      if (i >= end) return SYNTAX;
      const c = bytes[i] as number;
      // Ordered by how often they come: lower case letters first.
      if (c > BACKSLASH && c < 0x80) i++;
      else if (c === QUOTE) return i + 1;
      else if (c >= 0x20 && c < BACKSLASH) i++;
      else if (c === BACKSLASH) {
        this.escaped = true;
        const next = this.at(i + 1);
        if (next === 0x75) {
          // A lone surrogate (\ud800) is let through, as JSON.parse does.
          for (let k = i + 2; k < i + 6; k++) if (k >= end || HEX[bytes[k] as number] !== 1) return SYNTAX;
          i += 6;
        } else if (next >= 0 && ESCAPED[next] === 1) i += 2;
        else return SYNTAX;
      } else if (c >= 0x80) {
        i = this.utf8(i, c);
        if (i < 0) return i;
      } else return SYNTAX; // a control character
    }
  }

  private utf8(i: number, lead: number): number {
    let low = 0x80;
    let high = 0xbf;
    let length: number;
    if (lead >= 0xc2 && lead <= 0xdf) length = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 2;
      if (lead === 0xe0)
        low = 0xa0; // shorter forms are overlong
      else if (lead === 0xed) high = 0x9f; // ED A0… encodes a surrogate
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 3;
      if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f; // beyond U+10FFFF
    } else return UTF8;
    const second = this.at(i + 1);
    if (second < low || second > high) return UTF8;
    for (let k = 2; k <= length; k++) {
      const c = this.at(i + k);
      if (c < 0x80 || c > 0xbf) return UTF8;
    }
    return i + length + 1;
  }

  private digits(i: number): number {
    const { bytes, end } = this;
    while (i < end && ((bytes[i] as number) - 0x30) >>> 0 <= 9) i++;
    return i;
  }

  /** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` */
  number(i: number): number {
    if (this.at(i) === 0x2d) i++;
    const first = this.at(i);
    if (first === 0x30) i++;
    else if (first >= 0x31 && first <= 0x39) i = this.digits(i + 1);
    else return SYNTAX;
    if (this.at(i) === 0x2e) {
      const from = i + 1;
      i = this.digits(from);
      if (i === from) return SYNTAX;
    }
    const e = this.at(i);
    if (e === 0x65 || e === 0x45) {
      const sign = this.at(i + 1);
      const from = sign === 0x2b || sign === 0x2d ? i + 2 : i + 1;
      i = this.digits(from);
      if (i === from) return SYNTAX;
    }
    return i;
  }

  matches(from: number, to: number, expected: Uint8Array): boolean {
    if (to - from !== expected.length || to > this.end) return false;
    for (let k = 0; k < expected.length; k++) if (this.bytes[from + k] !== expected[k]) return false;
    return true;
  }

  literal(i: number, expected: Uint8Array): number {
    return this.matches(i, i + expected.length, expected) ? i + expected.length : SYNTAX;
  }

  /**
   * One value of any kind from i (no space before it), inside `depth` open containers. Iterative,
   * with the open containers as bits (1 for an object), so no nesting reaches the call stack.
   */
  value(i: number, depth: number): number {
    const { bytes, end } = this;
    const base = depth;
    let bits = 0;
    let deeper: Uint8Array | undefined;
    for (;;) {
      let c = i < end ? (bytes[i] as number) : -1;
      if (c === QUOTE) i = this.string(i);
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (++depth > MAX_JSON_DEPTH) return DEPTH;
        const level = depth - base - 1;
        const isObject = c === OPEN_OBJECT;
        if (level < LEVELS_IN_BITS) bits = isObject ? bits | (1 << level) : bits & ~(1 << level);
        else (deeper ??= new Uint8Array(MAX_JSON_DEPTH))[level] = isObject ? 1 : 0;
        i = this.space(i + 1);
        if (this.at(i) !== (isObject ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          if (isObject) i = this.key(i);
          if (i < 0) return i;
          continue;
        }
        depth--;
        i++;
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) i = this.number(i);
      else if (c === 0x74) i = this.literal(i, TRUE);
      else if (c === 0x66) i = this.literal(i, FALSE);
      else if (c === 0x6e) i = this.literal(i, NULL);
      else return SYNTAX;
      if (i < 0) return i;
      // After a value: close what ends here, then go on to the next element.
      for (;;) {
        if (depth === base) return i;
        const level = depth - base - 1;
        const isObject = level < LEVELS_IN_BITS ? (bits & (1 << level)) !== 0 : deeper?.[level] === 1;
        c = i < end ? (bytes[i] as number) : -1;
        if (c <= 0x20) c = this.at((i = this.space(i)));
        if (c === COMMA) {
          i = this.space(i + 1);
          if (isObject) i = this.key(i);
          if (i < 0) return i;
          break;
        }
        if (c !== (isObject ? CLOSE_OBJECT : CLOSE_ARRAY)) return SYNTAX;
        depth--;
        i++;
      }
    }
  }

  /** A key, its colon and the space after: returns where the value starts. */
  key(i: number): number {
    if (this.at(i) !== QUOTE) return SYNTAX;
    i = this.string(i);
    if (i < 0) return i;
    let c = this.at(i);
    if (c <= 0x20) c = this.at((i = this.space(i)));
    if (c !== COLON) return SYNTAX;
    return this.at(i + 1) <= 0x20 ? this.space(i + 1) : i + 1;
  }

  /** A string's value from its bytes, quotes included, decoded exactly as JSON.parse would. */
  decode(from: number, to: number, escaped: boolean): string {
    const text = this.asBuffer();
    return escaped
      ? (JSON.parse(text.toString("utf8", from, to)) as string)
      : text.toString("utf8", from + 1, to - 1);
  }

  /** A number's value, as JSON.parse reads it (Infinity when out of range). */
  numberValue(from: number, to: number): number {
    const { bytes } = this;
    const negative = bytes[from] === 0x2d;
    let value = 0;
    // Up to 15 digits an integer is exact in a double: no string needed.
    if (to - from <= 15) {
      for (let k = negative ? from + 1 : from; k < to; k++) {
        const digit = (bytes[k] as number) - 0x30;
        if (digit >>> 0 > 9) return Number(this.asBuffer().toString("latin1", from, to));
        value = value * 10 + digit;
      }
      return negative ? -value : value;
    }
    return Number(this.asBuffer().toString("latin1", from, to));
  }

  private asBuffer(): Buffer {
    const { bytes } = this;
    this.text ??= Buffer.isBuffer(bytes)
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return this.text;
  }
}
