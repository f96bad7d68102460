// Reads JSON text (RFC 8259) from bytes without building values: the cursor of the hit columns reader.
// It checks the grammar as it goes (strings, escapes, UTF-8, numbers, literals, nesting) and turns
// into a JS value only what its caller asks for, as JSON.parse would have given it at that place.
import { Buffer } from "node:buffer";
import { decodeString, skipEscape, skipUtf8, slicingBuffer } from "./json-strings.js";
import type { SlicingBuffer } from "./json-strings.js";

/** Containers nested deeper than this are refused (JSON.parse takes them; the caller falls back to it). */
export const MAX_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** Per byte: 1 for the bytes a string holds as they are (printable ASCII but quote and backslash). */
const PLAIN = new Uint8Array(256);
for (let byte = 0x20; byte < 0x80; byte++) PLAIN[byte] = byte === QUOTE || byte === BACKSLASH ? 0 : 1;

/** Per byte: 1 for JSON whitespace. */
const SPACE = new Uint8Array(256);
for (const byte of [0x20, 0x0a, 0x0d, 0x09]) SPACE[byte] = 1;

const EMPTY = slicingBuffer(Buffer.alloc(0));

/**
 * A cursor over one JSON text in `bytes[start, end)`. Each method takes the position of what it reads
 * and returns the position after it, or -1 with `failure` naming the problem.
 */
export class JsonScanner {
  protected bytes: SlicingBuffer = EMPTY;
  protected end = 0;
  failure: string | undefined = undefined;
  /** Set by `scanString`: the string had an escape; it had a byte over 0x7f. */
  protected escaped = false;
  protected wide = false;
  /** Set by `scanNumber`: the number's value. */
  protected number = 0;
  /** Per open container of `skipValue`: 1 for an object, 0 for an array. */
  private readonly kinds = new Uint8Array(MAX_DEPTH + 2);

  protected begin(bytes: Uint8Array, end: number): void {
    this.bytes = slicingBuffer(bytes);
    this.end = end;
    this.failure = undefined;
  }

  /** The byte at `at`, or -1 past the end (never a read out of bounds, which slows every read after). */
  protected byteAt(at: number): number {
    return at < this.end ? (this.bytes[at] as number) : -1;
  }

  protected fail(reason: string): -1 {
    this.failure ??= reason;
    return -1;
  }

  protected skipSpace(from: number): number {
    const bytes = this.bytes;
    const end = this.end;
    let i = from;
    while (i < end && SPACE[bytes[i] as number] === 1) i++;
    return i;
  }

  /** `at` is the opening quote. */
  protected scanString(at: number): number {
    const bytes = this.bytes;
    const end = this.end;
    let escaped = false;
    let wide = false;
    let i = at + 1;
    for (;;) {
      while (i < end && PLAIN[bytes[i] as number] === 1) i++;
      if (i >= end) return this.fail("a string is not closed");
      const byte = bytes[i] as number;
      if (byte === QUOTE) break;
      if (byte === BACKSLASH) {
        escaped = true;
        i = skipEscape(bytes, i, end);
        if (i < 0) return this.fail("a string has an escape JSON does not know");
      } else if (byte >= 0x80) {
        wide = true;
        i = skipUtf8(bytes, i, end, byte);
        if (i < 0) return this.fail("a string is not UTF-8");
      } else {
        return this.fail("a control character in a string");
      }
    }
    this.escaped = escaped;
    this.wide = wide;
    return i + 1;
  }

  /** The text of the string scanned between `from` and `to`, as JSON.parse gives it. */
  protected decodeString(from: number, to: number, escaped: boolean, wide: boolean): string {
    return decodeString(this.bytes, from, to, escaped, wide);
  }

  /** Sets `number` to the value JSON.parse gives the number text at `at`. */
  protected scanNumber(at: number): number {
    const bytes = this.bytes;
    const end = this.end;
    let i = at;
    const negative = this.byteAt(i) === MINUS;
    if (negative) i++;
    let byte = i < end ? (bytes[i] as number) : -1;
    if (byte < ZERO || byte > NINE) return this.fail("a number has no digits");
    let whole = 0;
    const digitsFrom = i;
    if (byte === ZERO) i++;
    else {
      while (i < end && byte >= ZERO && byte <= NINE) {
        whole = whole * 10 + byte - ZERO;
        byte = ++i < end ? (bytes[i] as number) : -1;
      }
    }
    let simple = i - digitsFrom <= 15;
    if (i < end && bytes[i] === 0x2e) {
      simple = false;
      i = this.skipDigits(i + 1);
      if (i < 0) return -1;
    }
    if (i < end && (bytes[i] === 0x65 || bytes[i] === 0x45)) {
      simple = false;
      i++;
      if (i < end && (bytes[i] === 0x2b || bytes[i] === MINUS)) i++;
      i = this.skipDigits(i);
      if (i < 0) return -1;
    }
    // Up to 15 digits a double holds the integer exactly; otherwise Number reads JSON's number
    // grammar (a subset of its own) to the same double as JSON.parse, -0 and Infinity included.
    this.number = simple ? (negative ? -whole : whole) : Number(this.bytes.latin1Slice(at, i));
    return i;
  }

  private skipDigits(from: number): number {
    const bytes = this.bytes;
    let i = from;
    while (i < this.end && (bytes[i] as number) >= ZERO && (bytes[i] as number) <= NINE) i++;
    return i === from ? this.fail("a number has no digits after its point or exponent") : i;
  }

  /** `true`, `false` or `null` at `at`; returns the position after it. */
  protected scanLiteral(at: number, word: string): number {
    if (at + word.length > this.end) return this.fail("an unknown word");
    for (let k = 0; k < word.length; k++)
      if (this.bytes[at + k] !== word.charCodeAt(k)) return this.fail("an unknown word");
    return at + word.length;
  }

  /** A scalar at `at` (string, number or literal), checked and not materialised. */
  private skipScalar(at: number, byte: number): number {
    if (byte === QUOTE) return this.scanString(at);
    if (byte === MINUS || (byte >= ZERO && byte <= NINE)) return this.scanNumber(at);
    if (byte === 0x74) return this.scanLiteral(at, "true");
    if (byte === 0x66) return this.scanLiteral(at, "false");
    if (byte === 0x6e) return this.scanLiteral(at, "null");
    return this.fail(at >= this.end ? "the JSON ends early" : "an unexpected character");
  }

  /**
   * Checks the value at `at` (no whitespace before it) inside `depth` open containers, without
   * building it: a loop with its own stack, so nesting costs no recursion.
   */
  protected skipValue(at: number, depth: number): number {
    const bytes = this.bytes;
    const kinds = this.kinds;
    let open = 0;
    let i = at;
    for (;;) {
      // A value starts at i.
      const byte = i < this.end ? (bytes[i] as number) : -1;
      if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (depth + open + 1 > MAX_DEPTH) return this.fail("the JSON nests too deep");
        const isObject = byte === OPEN_OBJECT;
        i = this.skipSpace(i + 1);
        if (this.byteAt(i) === (isObject ? CLOSE_OBJECT : CLOSE_ARRAY)) i++;
        else {
          kinds[open++] = isObject ? 1 : 0;
          i = isObject ? this.skipKey(i) : i;
          if (i < 0) return -1;
          continue;
        }
      } else {
        i = this.skipScalar(i, byte);
        if (i < 0) return -1;
      }
      // A value ended before i: close containers until one has a next member, or none is open.
      for (;;) {
        if (open === 0) return i;
        i = this.skipSpace(i);
        const next = i < this.end ? (bytes[i] as number) : -1;
        const isObject = kinds[open - 1] === 1;
        if (next === COMMA) {
          i = this.skipSpace(i + 1);
          if (isObject) i = this.skipKey(i);
          if (i < 0) return -1;
          break;
        }
        if (next !== (isObject ? CLOSE_OBJECT : CLOSE_ARRAY))
          return this.fail("a comma or bracket is missing");
        open--;
        i++;
      }
    }
  }

  /** A key and its colon at `at`; returns where its value starts. */
  protected skipKey(at: number): number {
    if (at >= this.end || this.bytes[at] !== QUOTE) return this.fail("a key is not a string");
    let i = this.scanString(at);
    if (i < 0) return -1;
    i = this.skipSpace(i);
    if (i >= this.end || this.bytes[i] !== COLON) return this.fail("a colon is missing");
    return this.skipSpace(i + 1);
  }
}
