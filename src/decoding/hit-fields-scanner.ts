// Reads the fields of a search hit from its bytes (`{"_index":…,"_id":…,"_score":…,"_source":{…},
// "sort":[…]}`) on the one walk of a hit (hit-walk.ts) and checks them as the hit check of the paging
// stream does; what `_source` holds is read by the subclass. A field given twice is read twice and
// the last counts, as JSON.parse keeps the last.
import { JsonBytes, NULL } from "./json-bytes.js";
import { jsonFailureMessage } from "./json-failures.js";
import { CACHED_TEXT_MAX, TextCache } from "./text-cache.js";
import { FIELD_ID, FIELD_INDEX, FIELD_SCORE, FIELD_SORT, FIELD_SOURCE, walkHit } from "./hit-walk.js";
import type { HitFieldReader } from "./hit-walk.js";

const QUOTE = 0x22;
/** The position a refusal of the hit's own rules returns (JSON_FAILURE's are -1 to -14). */
const REFUSED = -100;

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

/** Shared by every read that finds no unknown field. */
export const NONE: readonly string[] = [];

/**
 * The fields no column holds, as the report names them: `unknown` as met (undefined where a repeated
 * key made one void), each once, with `_id` and `_index` when no column takes them.
 */
export function unknownFieldNames(
  unknown: readonly (string | undefined)[],
  columnNames: ReadonlySet<string>,
): readonly string[] {
  // A key repeated outside the column paths is named twice; JSON.parse keeps it once.
  const seen = new Set<string>();
  for (const name of unknown) if (name !== undefined) seen.add(name);
  if (!columnNames.has(KEY_ID)) seen.add(KEY_ID);
  if (!columnNames.has(KEY_INDEX)) seen.add(KEY_INDEX);
  return seen.size === 0 ? NONE : [...seen];
}

/** A hit's own fields, checked as `HIT_ARRAYS`' `accepts` checks them; `_source` is the subclass's. */
export abstract class HitFieldsScanner extends JsonBytes implements HitFieldReader {
  /** The hit's `_id` and `_index`, once read. */
  id = "";
  index = "";
  /** Why the hit was refused, set with REFUSED (a grammar failure is named from its position). */
  private refusal = "";
  /** The hit's own fields met so far (FIELD_* bits). */
  private seen = 0;
  /** Short ASCII strings already made, by their bytes (index names here, values in the subclass). */
  protected readonly texts = new TextCache();

  constructor(private readonly v3: boolean) {
    super();
  }

  /**
   * Where the closing quote of a key at `from` is when the key is exactly `key` (bytes no JSON string
   * holds unescaped, so an equal run of bytes followed by a quote is that key and nothing else); -1
   * otherwise.
   */
  protected keyAt(from: number, key: Uint8Array): number {
    const close = from + key.length;
    if (close >= this.end || this.bytes[close] !== QUOTE) return -1;
    const { bytes } = this;
    for (let k = 0; k < key.length; k++) if (bytes[from + k] !== key[k]) return -1;
    return close;
  }

  protected fail(reason: string): number {
    this.refusal = reason;
    return REFUSED;
  }

  /** What the failure position `at` (a step's negative return) means. */
  protected failureAt(at: number): string {
    return at === REFUSED ? this.refusal : jsonFailureMessage(at);
  }

  /** Reads the `_source` object at `at`, two containers deep; returns the position after it or -1. */
  protected abstract readSource(at: number): number;

  /** The hit at `at`; returns the position after it, or -1 with `failure` set. */
  protected readHit(at: number): number {
    if (this.at(at) !== 0x7b) return this.fail("the hit is not an object");
    this.seen = 0;
    const end = walkHit(this, at, this);
    if (end < 0) return end;
    const needed = FIELD_INDEX | FIELD_ID | FIELD_SOURCE;
    if ((this.seen & needed) !== needed) return this.fail("the hit lacks _index, _id or _source");
    if (this.v3 && (this.seen & (FIELD_SCORE | FIELD_SORT)) !== (FIELD_SCORE | FIELD_SORT))
      return this.fail("a v3 hit lacks _score or sort");
    return end;
  }

  /** One of the hit's fields (HitFieldReader): `this` is the walk's bytes. */
  readField(_json: JsonBytes, field: number, at: number): number {
    this.seen |= field;
    if (field === FIELD_INDEX || field === FIELD_ID) return this.readIdentity(at, field === FIELD_ID);
    if (field === FIELD_SCORE) return this.readScore(at);
    if (field === FIELD_SOURCE)
      return this.at(at) === 0x7b ? this.readSource(at) : this.fail("_source is not an object");
    if (field === FIELD_SORT) return this.readSort(at);
    return this.value(at, 1);
  }

  private readIdentity(at: number, isId: boolean): number {
    if (this.at(at) !== QUOTE) return this.fail("_index or _id is not a string");
    const end = this.string(at);
    if (end < 0) return end;
    // Index names repeat from hit to hit: kept as one string; ids are new each time.
    const text =
      !isId && !this.escaped && !this.wide && end - at - 2 <= CACHED_TEXT_MAX
        ? this.texts.text(this.bytes, at + 1, end - 1, -1)
        : this.text(at + 1, end - 1, this.escaped, this.wide);
    if (isId) this.id = text;
    else this.index = text;
    return end;
  }

  private readScore(at: number): number {
    if (this.at(at) === 0x6e) return this.literal(at, NULL);
    const end = this.number(at);
    return end >= 0 && !Number.isFinite(this.numberValue(at, end)) ? this.fail("_score is not finite") : end;
  }

  private readSort(at: number): number {
    if (this.at(at) !== 0x5b) return this.fail("sort is not an array");
    let i = this.space(at + 1);
    if (this.at(i) === 0x5d) return i + 1;
    for (;;) {
      const byte = i < this.end ? (this.bytes[i] as number) : -1;
      if (byte === QUOTE) i = this.string(i);
      else if (byte === 0x6e) i = this.literal(i, NULL);
      else {
        const from = i;
        i = this.number(i);
        if (i >= 0 && !Number.isFinite(this.numberValue(from, i)))
          return this.fail("a sort value is not finite");
      }
      if (i < 0) return i;
      i = this.space(i);
      const next = i < this.end ? this.bytes[i] : -1;
      if (next === 0x5d) return i + 1;
      if (next !== 0x2c) return this.fail("a comma or bracket is missing");
      i = this.space(i + 1);
    }
  }
}
