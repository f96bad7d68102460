// JSON text to values and back without losing what the service sent: an integer beyond 2^53 is read
// from its digits (a bigint, where JSON.parse would round it to the nearest double), and written back
// as those digits; a lone surrogate, which no UTF-8 reader takes, is written as U+FFFD. Node 20 has
// neither JSON.parse's source text (`context.source`) nor JSON.rawJSON, so the rare text that holds a
// long run of digits is read again by a parser of our own; every other text costs one regex test.

/** A run of 16 digits: every integer past Number.MAX_SAFE_INTEGER (16 digits) has one. */
const LONG_DIGITS = /\d{16}/;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
/** Past this nesting the parser refuses, as the bytes readers do (json-bytes.ts's MAX_JSON_DEPTH). */
const MAX_DEPTH = 512;

/**
 * A number token's value as the service meant it: an integer written with digits alone and beyond
 * 2^53 is a bigint (exact), anything else the double JSON.parse reads.
 */
function exactNumber(token: string, hasFractionOrExponent: boolean): number | bigint {
  const value = Number(token);
  return hasFractionOrExponent || Number.isSafeInteger(value) ? value : BigInt(token);
}

/**
 * JSON.parse, but an integer beyond 2^53 becomes a bigint of its exact digits. Throws what JSON.parse
 * throws on text that is not JSON.
 * @example
 * parseJson('{"n":9007199254740993,"m":1}') // { n: 9007199254740993n, m: 1 }
 */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return LONG_DIGITS.test(text) ? new ExactParser(text).document() : value;
}

/** Reads text JSON.parse has already accepted, so it checks only what JSON.parse does not. */
class ExactParser {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): unknown {
    return this.value(0);
  }

  private space(): void {
    const { text } = this;
    let c = text.charCodeAt(this.at);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++this.at);
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new SyntaxError(`JSON nested deeper than ${MAX_DEPTH}`);
    this.space();
    const c = this.text.charCodeAt(this.at);
    if (c === 0x22) return this.string();
    if (c === 0x7b) return this.object(depth + 1);
    if (c === 0x5b) return this.array(depth + 1);
    if (c === 0x74) return this.word("true", true);
    if (c === 0x66) return this.word("false", false);
    if (c === 0x6e) return this.word("null", null);
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) throw new SyntaxError(`JSON has no value at ${this.at}`);
    this.at = NUMBER.lastIndex;
    return exactNumber(match[0], match[1] !== undefined || match[2] !== undefined);
  }

  private word<T>(word: string, value: T): T {
    this.at += word.length;
    return value;
  }

  private string(): string {
    const { text } = this;
    const from = this.at;
    let i = from + 1;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        i++;
      }
      i++;
    }
    this.at = i + 1;
    return escaped ? (JSON.parse(text.slice(from, i + 1)) as string) : text.slice(from + 1, i);
  }

  private object(depth: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    this.at++;
    this.space();
    if (this.text.charCodeAt(this.at) === 0x7d) {
      this.at++;
      return object;
    }
    for (;;) {
      this.space();
      const key = this.string();
      this.space();
      this.at++; // the colon
      const value = this.value(depth);
      // As JSON.parse: an own property whatever its name (`__proto__` included), the last value kept.
      Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
      this.space();
      if (this.text.charCodeAt(this.at++) === 0x7d) return object;
    }
  }

  private array(depth: number): unknown[] {
    const array: unknown[] = [];
    this.at++;
    this.space();
    if (this.text.charCodeAt(this.at) === 0x5d) {
      this.at++;
      return array;
    }
    for (;;) {
      array.push(this.value(depth));
      this.space();
      if (this.text.charCodeAt(this.at++) === 0x5d) return array;
    }
  }
}

/**
 * `text` (JSON) with every escaped lone surrogate (`\ud800`) replaced by U+FFFD, the character a
 * UTF-8 writer puts in its place; an escaped pair is one character and stays. `replaced` counts them.
 */
export function wellFormedJson(text: string, replaced?: { count: number }): string {
  let i = text.indexOf("\\u");
  if (i < 0) return text;
  // From the first backslash that may start a `\u`: each escape is stepped over whole, so a `\\`
  // (a literal backslash) is never read as the start of one.
  i = text.indexOf("\\");
  let out = "";
  let copied = 0;
  while (i >= 0) {
    if (text.charCodeAt(i + 1) !== 0x75) {
      i = text.indexOf("\\", i + 2);
      continue;
    }
    const unit = hexUnit(text, i + 2);
    let next = i + 6;
    if (unit >= 0xd800 && unit <= 0xdfff) {
      const low = unit <= 0xdbff && text.charCodeAt(next) === 0x5c && text.charCodeAt(next + 1) === 0x75;
      if (low && hexUnit(text, next + 2) >= 0xdc00 && hexUnit(text, next + 2) <= 0xdfff) next += 6;
      else {
        out += `${text.slice(copied, i)}\ufffd`;
        copied = next;
        if (replaced !== undefined) replaced.count += 1;
      }
    }
    i = text.indexOf("\\", next);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The code unit of the four hex digits at `at` (-1 when they are not hex digits). */
function hexUnit(text: string, at: number): number {
  const digits = text.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(digits) ? Number.parseInt(digits, 16) : -1;
}

/**
 * JSON.stringify, with bigints written as their digits (a number to every reader, as the service sent
 * it) and lone surrogates as U+FFFD, so the text is one that DuckDB and jq read.
 * @example
 * stringifyJson({ n: 9007199254740993n, s: "\ud800" }) // '{"n":9007199254740993,"s":"\ufffd"}'
 */
export function stringifyJson(value: unknown, replaced?: { count: number }): string | undefined {
  const text = stringifyExact(value);
  return text === undefined ? undefined : wellFormedJson(text, replaced);
}

/**
 * JSON.stringify with bigints as their digits; a lone surrogate stays the `\ud800` escape JSON.stringify
 * writes, for a caller that replaces (and counts) them later with `wellFormedJson`.
 */
export function stringifyExact(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    // A bigint (or a cycle, which the retry throws again) is a TypeError; the replacer costs, so it
    // is taken only then.
    if (!(error instanceof TypeError)) throw error;
    return stringifyWithBigInts(value);
  }
}

/** String.prototype.isWellFormed (ES2024, in Node 20): native, and at once true for one-byte strings. */
const isWellFormed = (text: string): boolean =>
  (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** The lone surrogates of `text`, each of which a UTF-8 writer puts U+FFFD in place of. */
export function loneSurrogates(text: string): number {
  if (isWellFormed(text)) return 0;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else count++;
  }
  return count;
}

/**
 * Each bigint goes out as a marker string, then the markers become the digits. A marker that some
 * string of the value already holds would be ambiguous: the count tells, and another marker is tried.
 */
function stringifyWithBigInts(value: unknown): string | undefined {
  for (let attempt = 0; ; attempt++) {
    const marker = `\u0000mdq-bigint-${attempt}\u0000`;
    const digits: string[] = [];
    const text = JSON.stringify(value, (_key, inner: unknown) => {
      if (typeof inner !== "bigint") return inner;
      digits.push(inner.toString());
      return marker;
    });
    if (text === undefined) return undefined;
    const quoted = JSON.stringify(marker);
    const parts = text.split(quoted);
    if (parts.length !== digits.length + 1) continue;
    let out = parts[0] as string;
    for (let k = 0; k < digits.length; k++) out += (digits[k] as string) + (parts[k + 1] as string);
    return out;
  }
}
