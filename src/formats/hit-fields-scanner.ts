// Reads the fields of a search hit from its bytes (`{"_index":…,"_id":…,"_score":…,"_source":{…},
// "sort":[…]}`) and checks them as the hit check of the paging stream does; what `_source` holds is
// read by the subclass.
import { JsonScanner } from "./json-scanner.js";

const QUOTE = 0x22;

export const KEY_ID = "_id";
export const KEY_INDEX = "_index";
const ID_BYTES = [0x5f, 0x69, 0x64];
const INDEX_BYTES = [0x5f, 0x69, 0x6e, 0x64, 0x65, 0x78];

/**
 * Whether a key of `_source` is `_id` or `_index`, which the hit's own replace in a row: its bytes
 * `bytes[from, to)`, or `decoded` when it was written with escapes.
 */
export function isIdentityKey(
  bytes: Uint8Array,
  from: number,
  to: number,
  decoded: string | undefined,
): boolean {
  if (decoded !== undefined) return decoded === KEY_ID || decoded === KEY_INDEX;
  const expected = to - from === 3 ? ID_BYTES : to - from === 6 ? INDEX_BYTES : undefined;
  if (expected === undefined) return false;
  for (let k = 0; k < expected.length; k++) if (bytes[from + k] !== expected[k]) return false;
  return true;
}

/** The hit's own keys, each read once (a repeat is refused: JSON.parse would keep only the last). */
const HIT_KEYS: ReadonlyMap<string, number> = new Map([
  ["_index", 1],
  ["_id", 2],
  ["_score", 4],
  ["_source", 8],
  ["sort", 16],
]);

/** A hit's own fields, checked as `HIT_ARRAYS`' `accepts` checks them; `_source` is the subclass's. */
export abstract class HitFieldsScanner extends JsonScanner {
  /** The hit's `_id` and `_index`, once read. */
  id = "";
  index = "";

  constructor(private readonly v3: boolean) {
    super();
  }

  /** Reads the `_source` object at `at`, two containers deep; returns the position after it or -1. */
  protected abstract readSource(at: number): number;

  /** The hit at `at`; returns the position after it, or -1 with `failure` set. */
  protected readHit(at: number): number {
    if (this.byteAt(at) !== 0x7b) return this.fail("the hit is not an object");
    let seen = 0;
    let i = this.skipSpace(at + 1);
    if (this.byteAt(i) === 0x7d) return this.fail("the hit has no _index, _id or _source");
    for (;;) {
      if (i >= this.end || this.bytes[i] !== QUOTE) return this.fail("a key is not a string");
      const keyFrom = i + 1;
      i = this.scanString(i);
      if (i < 0) return -1;
      const key = this.escaped || i - keyFrom > 8 ? "" : this.decodeString(keyFrom, i - 1, false, false);
      if (this.escaped) return this.fail("a hit key has an escape");
      const bit = HIT_KEYS.get(key) ?? 0;
      if ((seen & bit) !== 0) return this.fail(`the hit repeats ${key}`);
      seen |= bit;
      i = this.skipSpace(i);
      if (this.byteAt(i) !== 0x3a) return this.fail("a colon is missing");
      i = this.skipSpace(i + 1);
      if (bit === 1 || bit === 2) i = this.readIdentity(i, bit === 2);
      else if (bit === 4) i = this.readScore(i);
      else if (bit === 8) {
        if (this.byteAt(i) !== 0x7b) return this.fail("_source is not an object");
        i = this.readSource(i);
      } else if (bit === 16) i = this.readSort(i);
      else i = this.skipValue(i, 1);
      if (i < 0) return -1;
      i = this.skipSpace(i);
      const next = i < this.end ? this.bytes[i] : -1;
      if (next === 0x2c) i = this.skipSpace(i + 1);
      else if (next === 0x7d) break;
      else return this.fail("a comma or brace is missing");
    }
    if ((seen & 11) !== 11) return this.fail("the hit lacks _index, _id or _source");
    if (this.v3 && (seen & 20) !== 20) return this.fail("a v3 hit lacks _score or sort");
    return i + 1;
  }

  private readIdentity(at: number, isId: boolean): number {
    if (this.byteAt(at) !== QUOTE) return this.fail("_index or _id is not a string");
    const end = this.scanString(at);
    if (end < 0) return -1;
    const text = this.decodeString(at + 1, end - 1, this.escaped, this.wide);
    if (isId) this.id = text;
    else this.index = text;
    return end;
  }

  private readScore(at: number): number {
    if (this.byteAt(at) === 0x6e) return this.scanLiteral(at, "null");
    const end = this.scanNumber(at);
    return end >= 0 && !Number.isFinite(this.number) ? this.fail("_score is not finite") : end;
  }

  private readSort(at: number): number {
    if (this.byteAt(at) !== 0x5b) return this.fail("sort is not an array");
    let i = this.skipSpace(at + 1);
    if (this.byteAt(i) === 0x5d) return i + 1;
    for (;;) {
      const byte = i < this.end ? (this.bytes[i] as number) : -1;
      if (byte === QUOTE) i = this.scanString(i);
      else if (byte === 0x6e) i = this.scanLiteral(i, "null");
      else {
        i = this.scanNumber(i);
        if (i >= 0 && !Number.isFinite(this.number)) return this.fail("a sort value is not finite");
      }
      if (i < 0) return -1;
      i = this.skipSpace(i);
      const next = i < this.end ? this.bytes[i] : -1;
      if (next === 0x5d) return i + 1;
      if (next !== 0x2c) return this.fail("a comma or bracket is missing");
      i = this.skipSpace(i + 1);
    }
  }
}
