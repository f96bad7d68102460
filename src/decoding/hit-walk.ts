// The one walk over a hit's own fields (`{"_index":…,"_id":…,"_score":…,"_source":{…},"sort":[…]}`)
// that both bytes readers share, the identity and `_source` reader (hit-bytes.ts) and the column
// readers (hit-slot-scanner.ts): where the last of each field was read, whether they have the hit
// schema's shape, and what a splice must know of `_source` (the columns reader reads `_source`
// itself). Each key is read as JSON.parse reads it (escapes decoded, so `"_\u0069d"` is `_id`), and a
// key given twice is read twice, so the last counts, as JSON.parse keeps the last.
import type { JsonBytes } from "./json-bytes.js";
import * as token from "./json-bytes.js";
import { JSON_FAILURE } from "./json-failures.js";
import type { UniqueKeys } from "./json-keys.js";

/** The hit's own fields, as the walk names them to its reader (OTHER for any other key). */
const OTHER = 0;
const FIELD_INDEX = 1;
const FIELD_ID = 2;
const FIELD_SCORE = 4;
const FIELD_SOURCE = 8;
const FIELD_SORT = 16;

const FIELD_KEYS: readonly [number, string][] = [
  [FIELD_INDEX, "_index"],
  [FIELD_ID, "_id"],
  [FIELD_SCORE, "_score"],
  [FIELD_SOURCE, "_source"],
  [FIELD_SORT, "sort"],
];
const FIELD_BYTES: readonly [number, Uint8Array][] = FIELD_KEYS.map(([field, key]) => [
  field,
  new TextEncoder().encode(key),
]);

export const KEY_ID = "_id";
export const KEY_INDEX = "_index";
const ID_BYTES = new TextEncoder().encode(KEY_ID);
const INDEX_BYTES = new TextEncoder().encode(KEY_INDEX);

/**
 * Whether a key of `_source` is `_id` or `_index`, which the hit's own replace in a row: its bytes
 * `json.bytes[from, to)`, or `decoded` when it was written with escapes.
 */
export function isIdentityKey(
  json: JsonBytes,
  from: number,
  to: number,
  decoded: string | undefined,
): boolean {
  if (decoded !== undefined) return decoded === KEY_ID || decoded === KEY_INDEX;
  return json.matches(from, to, ID_BYTES) || json.matches(from, to, INDEX_BYTES);
}

/** The field whose key is the string `bytes[from, to)` (its quotes included), compared as bytes. */
function fieldAt(json: JsonBytes, from: number, to: number): number {
  if (json.escaped) {
    // Rare, so decoded: an escaped "_\u0069d" names `_id` for JSON.parse too.
    const key = json.text(from + 1, to - 1, true, json.wide);
    for (const [field, name] of FIELD_KEYS) if (name === key) return field;
    return OTHER;
  }
  for (const [field, key] of FIELD_BYTES) if (json.matches(from + 1, to - 1, key)) return field;
  return OTHER;
}

/** The hit schemas of api/wire/hits.ts: `hit` (v1 and v2 scroll) and `v3Hit` (with `sort`). */
export type HitShape = "hit" | "v3Hit";

/** Field positions when there is no usable value: */
const ABSENT = -1;
/** A value of the wrong type: its key was there, so the shape check fails. */
const WRONG = -2;

/** Array-index keys (`"0"`, `"17"`): JSON.stringify writes them first, whatever order the bytes had. */
export const INDEX_KEY = /^(?:0|[1-9]\d*)$/;
const SYNTAX = JSON_FAILURE.unexpected; // what the hit's own steps refuse, JSON.parse refuses too

/**
 * Where the hit's own fields were read, the last of each (ABSENT or WRONG when not usable). With
 * `keys`, every object's keys in `_source` are checked to be named once; with `readSource`, `_source`'s
 * object is read by it instead (from its `{`, returning the position after it or a failure).
 */
export class HitFields {
  constructor(
    readonly shape: HitShape,
    private readonly keys: UniqueKeys | undefined,
    private readonly sourceReader?: (at: number) => number,
  ) {}
  id = ABSENT;
  idEnd = 0;
  /** The last string read for `_id` and `_index` had escapes; had a byte over 0x7f. */
  idEscaped = false;
  idWide = false;
  index = ABSENT;
  indexEnd = 0;
  indexEscaped = false;
  indexWide = false;
  score: number | null | undefined = undefined;
  /** `_score` is neither null nor a finite number. */
  scoreWrong = false;
  sort = ABSENT;
  source = ABSENT;
  sourceEnd = 0;
  sourceHasIdentityKey = false;
  sourceHasIndexKey = false;
  private sortValid = false;

  /** Nothing read yet: a reader reused from hit to hit starts each one here. */
  reset(): void {
    this.id = this.index = this.sort = this.source = ABSENT;
    this.score = undefined;
    this.scoreWrong = false;
  }

  /** Whether the fields read are what the hit schema of `shape` accepts (JSON.parse + the schema). */
  fitShape(): boolean {
    if (this.id < 0 || this.index < 0 || this.source < 0) return false;
    if (this.scoreWrong || (this.score === undefined && this.shape === "v3Hit")) return false;
    return this.shape === "hit" || this.sort >= 0;
  }

  /**
   * Walks the hit whose `{` is at `at` (the caller checked it), noting its own fields; returns the
   * position after its `}`, or a negative failure position (JSON_FAILURE's, or `readSource`'s).
   * @example
   * const after = fields.walk(json, json.space(start));
   * if (after < 0) return refusal(after);
   */
  walk(json: JsonBytes, at: number): number {
    let i = json.space(at + 1);
    if (json.at(i) === token.CLOSE_OBJECT) return i + 1;
    for (;;) {
      if (json.at(i) !== token.QUOTE) return JSON_FAILURE.keyNotString;
      const from = i;
      i = json.string(i);
      if (i < 0) return i;
      const field = fieldAt(json, from, i);
      i = json.space(i);
      if (json.at(i) !== token.COLON) return JSON_FAILURE.noColon;
      i = this.readField(json, field, json.space(i + 1));
      if (i < 0) return i;
      i = json.space(i);
      const next = json.at(i);
      if (next === token.CLOSE_OBJECT) return i + 1;
      if (next !== token.COMMA) return JSON_FAILURE.commaOrBrace;
      i = json.space(i + 1);
    }
  }

  /** The value of the hit's key `field` (OTHER: not one of its own): where it ends, what it is noted. */
  private readField(json: JsonBytes, field: number, i: number): number {
    const c = json.at(i);
    const from = i;
    if (field === FIELD_ID || field === FIELD_INDEX) {
      i = c === token.QUOTE ? json.string(i) : json.value(i, 1);
      const at = c === token.QUOTE ? from : WRONG;
      if (field === FIELD_ID) {
        this.id = at;
        this.idEnd = i;
        this.idEscaped = json.escaped;
        this.idWide = json.wide;
      } else {
        this.index = at;
        this.indexEnd = i;
        this.indexEscaped = json.escaped;
        this.indexWide = json.wide;
      }
    } else if (field === FIELD_SCORE) {
      const isNumber = c === 0x2d || (c >= 0x30 && c <= 0x39);
      i = isNumber ? json.number(i) : json.value(i, 1);
      this.score = isNumber && i > 0 ? json.numberValue(from, i) : c === 0x6e ? null : undefined;
      this.scoreWrong = this.score === undefined || !Number.isFinite(this.score ?? 0);
    } else if (field === FIELD_SOURCE) {
      if (c !== token.OPEN_OBJECT) i = json.value(i, 1);
      else i = this.sourceReader === undefined ? this.readSource(json, i) : this.sourceReader(i);
      this.source = c === token.OPEN_OBJECT ? from : WRONG;
      this.sourceEnd = i;
    } else if (field === FIELD_SORT && this.shape === "v3Hit") {
      i = c === token.OPEN_ARRAY ? this.readSort(json, i) : json.value(i, 1);
      this.sort = c === token.OPEN_ARRAY && this.sortValid ? from : WRONG;
    } else i = json.value(i, 1);
    return i;
  }

  /** `_source`'s object from its `{`: its top-level keys are checked for what a splice must know. */
  private readSource(json: JsonBytes, i: number): number {
    const keys = this.keys;
    this.sourceHasIdentityKey = false;
    this.sourceHasIndexKey = false;
    i = json.space(i + 1);
    if (json.at(i) === token.CLOSE_OBJECT) return i + 1;
    keys?.reset(json.bytes);
    keys?.open();
    json.keys = keys;
    i = this.readMembers(json, i);
    json.keys = undefined;
    return i;
  }

  private readMembers(json: JsonBytes, i: number): number {
    const keys = this.keys;
    for (;;) {
      if (json.at(i) !== token.QUOTE) return SYNTAX;
      const from = i;
      i = json.string(i);
      if (i < 0) return i;
      if (keys !== undefined && (json.escaped || !keys.add(from + 1, i - 1))) return JSON_FAILURE.repeatedKey;
      const first = json.bytes[from + 1] as number;
      // Rare, so decoded: an escaped "_\u0069d" or "\u0031" counts as well.
      const key =
        json.escaped || (first >= 0x30 && first <= 0x39)
          ? json.text(from + 1, i - 1, json.escaped, json.wide)
          : undefined;
      if (isIdentityKey(json, from + 1, i - 1, key)) this.sourceHasIdentityKey = true;
      if (key !== undefined && INDEX_KEY.test(key)) this.sourceHasIndexKey = true;
      i = json.space(i);
      if (json.at(i) !== token.COLON) return SYNTAX;
      i = json.value(json.space(i + 1), 2);
      if (i < 0) return i;
      i = json.space(i);
      const next = json.at(i);
      if (next === token.CLOSE_OBJECT) return i + 1;
      if (next !== token.COMMA) return SYNTAX;
      i = json.space(i + 1);
    }
  }

  /** A v3 `sort` array from its `[`: notes whether it holds only strings, finite numbers and nulls. */
  private readSort(json: JsonBytes, i: number): number {
    this.sortValid = true;
    i = json.space(i + 1);
    if (json.at(i) === token.CLOSE_ARRAY) return i + 1;
    for (;;) {
      const c = json.at(i);
      const from = i;
      if (c === token.QUOTE) i = json.string(i);
      else if (c === 0x6e) i = json.literal(i, token.NULL);
      else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        i = json.number(i);
        if (i > 0 && !Number.isFinite(json.numberValue(from, i))) this.sortValid = false;
      } else {
        this.sortValid = false;
        i = json.value(i, 2);
      }
      if (i < 0) return i;
      i = json.space(i);
      const next = json.at(i);
      if (next === token.CLOSE_ARRAY) return i + 1;
      if (next !== token.COMMA) return SYNTAX;
      i = json.space(i + 1);
    }
  }
}
