// Checks JSON (RFC 8259) on UTF-8 bytes without building values: the one grammar under the readers
// that take hits straight from their bytes (decoding/hit-bytes.ts, decoding/hit-columns-reader.ts).
// One pass, no allocation per value, positions in and out; a failure is a negative position naming
// the problem (JSON_FAILURE, json-failures.ts), so every step returns one number.
import { Buffer } from "node:buffer";
import { decodeString, escapedUnit, skipEscape, skipUtf8, slicingBuffer } from "./json-strings.js";
import type { SlicingBuffer } from "./json-strings.js";
import { JSON_FAILURE } from "./json-failures.js";
import { exactNumberValue, numberValue } from "./json-numbers.js";
import type { UniqueKeys } from "./json-keys.js";

/** Containers nested deeper than this are refused, so a hostile body cannot cost unbounded memory. */
export const MAX_JSON_DEPTH = 512;

export const QUOTE = 0x22;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const BACKSLASH = 0x5c;
const LEVELS_IN_BITS = 31;

export const TRUE = Buffer.from("true");
export const FALSE = Buffer.from("false");
export const NULL = Buffer.from("null");
const EMPTY = slicingBuffer(Buffer.alloc(0));

/** A reader over bytes[…, end): each step takes the position of a token and returns the one after it. */
export class JsonBytes {
  bytes: SlicingBuffer = EMPTY;
  end = 0;
  /** No whitespace was skipped since `reset`. */
  compact = true;
  /** The string last read has an escape; it has a byte over 0x7f. */
  escaped = false;
  wide = false;
  /** A string read since `reset` holds an escaped surrogate without its other half (`\ud800`). */
  loneSurrogate = false;
  /**
   * When set, `value` notes every object's keys there and refuses (JSON_FAILURE.repeatedKey) a key an
   * object names twice, or one written with escapes, which might spell another: bytes copied as they
   * came must say what JSON.parse says. Its `reset` takes the same bytes.
   */
  keys: UniqueKeys | undefined = undefined;

  constructor(bytes?: Uint8Array, end?: number) {
    if (bytes !== undefined) this.reset(bytes, end ?? bytes.length);
  }

  /** Reads `bytes[…, end)` from now on (a reader is reused from hit to hit). */
  reset(bytes: Uint8Array, end: number): void {
    this.bytes = slicingBuffer(bytes);
    this.end = end;
    this.compact = true;
    this.loneSurrogate = false;
  }

  /** The byte at i, or -1 past the end (never a read out of bounds, which slows every read after). */
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

  /** From the opening quote to after the closing one; sets `escaped` and `wide`. */
  string(i: number): number {
    const { bytes, end } = this;
    let escaped = false;
    let wide = false;
    i++;
    for (;;) {
      if (i >= end) return JSON_FAILURE.notClosed;
      const c = bytes[i] as number;
      // Ordered by how often they come, lower case letters first: measured faster on hits than a
      // table lookup per byte.
      if (c > BACKSLASH && c < 0x80) i++;
      else if (c === QUOTE) break;
      else if (c >= 0x20 && c < BACKSLASH) i++;
      else if (c === BACKSLASH) {
        // A lone surrogate (\ud800) is let through, as JSON.parse does, and noted.
        escaped = true;
        const from = i;
        i = skipEscape(bytes, i, end);
        if (i < 0) return JSON_FAILURE.badEscape;
        if (i - from === 6 && ((bytes[from + 2] as number) | 0x20) === 0x64) i = this.surrogate(from, i);
      } else if (c >= 0x80) {
        wide = true;
        i = skipUtf8(bytes, i, end, c);
        if (i < 0) return JSON_FAILURE.notUtf8;
      } else return JSON_FAILURE.control;
    }
    this.escaped = escaped;
    this.wide = wide;
    return i + 1;
  }

  /**
   * After the escape `\uDxxx` at `from` (ending at `next`): past its low half when it is a high
   * surrogate followed by one, else where it ends, noting a lone surrogate.
   */
  private surrogate(from: number, next: number): number {
    const unit = escapedUnit(this.bytes, from);
    if (unit < 0xd800) return next;
    if (unit <= 0xdbff && this.at(next) === BACKSLASH && this.at(next + 1) === 0x75) {
      const low = skipEscape(this.bytes, next, this.end) > 0 ? escapedUnit(this.bytes, next) : -1;
      if (low >= 0xdc00 && low <= 0xdfff) return next + 6;
    }
    this.loneSurrogate = true;
    return next;
  }

  /** The text between a string's quotes `from` and `to`, decoded exactly as JSON.parse would. */
  text(from: number, to: number, escaped: boolean, wide: boolean): string {
    return decodeString(this.bytes, from, to, escaped, wide);
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
    else return JSON_FAILURE.noDigits;
    if (this.at(i) === 0x2e) {
      const from = i + 1;
      i = this.digits(from);
      if (i === from) return JSON_FAILURE.noFractionDigits;
    }
    const e = this.at(i);
    if (e === 0x65 || e === 0x45) {
      const sign = this.at(i + 1);
      const from = sign === 0x2b || sign === 0x2d ? i + 2 : i + 1;
      i = this.digits(from);
      if (i === from) return JSON_FAILURE.noFractionDigits;
    }
    return i;
  }

  /** A checked number's value, as JSON.parse reads it (json-numbers.ts). */
  numberValue(from: number, to: number): number {
    return numberValue(this.bytes, from, to);
  }

  /** `numberValue`, but an integer beyond 2^53 written with digits alone is a bigint of them. */
  exactNumberValue(from: number, to: number): number | bigint {
    return exactNumberValue(this.bytes, from, to);
  }

  matches(from: number, to: number, expected: Uint8Array): boolean {
    if (to - from !== expected.length || to > this.end) return false;
    for (let k = 0; k < expected.length; k++) if (this.bytes[from + k] !== expected[k]) return false;
    return true;
  }

  /** `true`, `false` or `null` (TRUE, FALSE, NULL) at i. */
  literal(i: number, expected: Uint8Array): number {
    return this.matches(i, i + expected.length, expected) ? i + expected.length : JSON_FAILURE.unknownWord;
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
        if (++depth > MAX_JSON_DEPTH) return JSON_FAILURE.tooDeep;
        const level = depth - base - 1;
        const isObject = c === OPEN_OBJECT;
        if (level < LEVELS_IN_BITS) bits = isObject ? bits | (1 << level) : bits & ~(1 << level);
        else (deeper ??= new Uint8Array(MAX_JSON_DEPTH))[level] = isObject ? 1 : 0;
        i = this.space(i + 1);
        if (this.at(i) !== (isObject ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          if (isObject && this.keys !== undefined) this.keys.open();
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
      else return c < 0 ? JSON_FAILURE.endsEarly : JSON_FAILURE.unexpected;
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
        if (c !== (isObject ? CLOSE_OBJECT : CLOSE_ARRAY)) return JSON_FAILURE.commaOrBracket;
        if (isObject && this.keys !== undefined) this.keys.close();
        depth--;
        i++;
      }
    }
  }

  /** A key, its colon and the space after: returns where the value starts. */
  key(i: number): number {
    if (this.at(i) !== QUOTE) return JSON_FAILURE.keyNotString;
    const from = i;
    i = this.string(i);
    if (i < 0) return i;
    if (this.keys !== undefined && (this.escaped || !this.keys.add(from + 1, i - 1)))
      return JSON_FAILURE.repeatedKey;
    let c = this.at(i);
    if (c <= 0x20) c = this.at((i = this.space(i)));
    if (c !== COLON) return JSON_FAILURE.noColon;
    return this.at(i + 1) <= 0x20 ? this.space(i + 1) : i + 1;
  }
}
