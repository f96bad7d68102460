// The one walk over a hit's own fields (`{"_index":…,"_id":…,"_score":…,"_source":{…},"sort":[…]}`)
// that both bytes readers share: the identity and `_source` reader (hit-bytes.ts) and the column
// readers (hit-slot-scanner.ts), both through HitFields (hit-bytes-fields.ts). It reads each key as JSON.parse does (escapes decoded, so
// `"_\u0069d"` is `_id`) and hands its value to the reader, which keeps what it needs; a key given
// twice is handed over twice, so a reader that overwrites keeps the last, as JSON.parse does.
import { JSON_FAILURE } from "./json-failures.js";
import type { JsonBytes } from "./json-bytes.js";

/** The hit's own fields, as the walk names them to its reader (OTHER for any other key). */
export const OTHER = 0;
export const FIELD_INDEX = 1;
export const FIELD_ID = 2;
export const FIELD_SCORE = 4;
export const FIELD_SOURCE = 8;
export const FIELD_SORT = 16;

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

/** What a hit's fields are read into: the reader of one bytes reader. */
export interface HitFieldReader {
  /**
   * Reads the value at `at` of the hit's key `field` (OTHER: a key not the hit's own); returns the
   * position after it, or a negative failure position, which ends the walk and is its result.
   */
  readField(json: JsonBytes, field: number, at: number): number;
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

/**
 * Walks the object whose `{` is at `at` (the caller checked it), handing each member's value to
 * `reader`; returns the position after its `}`, or a negative failure position (JSON_FAILURE's, or
 * the reader's own).
 * @example
 * const after = walkHit(json, json.space(start), fields);
 * if (after < 0) return refusal(after);
 */
export function walkHit(json: JsonBytes, at: number, reader: HitFieldReader): number {
  let i = json.space(at + 1);
  if (json.at(i) === 0x7d) return i + 1;
  for (;;) {
    if (json.at(i) !== 0x22) return JSON_FAILURE.keyNotString;
    const from = i;
    i = json.string(i);
    if (i < 0) return i;
    const field = fieldAt(json, from, i);
    i = json.space(i);
    if (json.at(i) !== 0x3a) return JSON_FAILURE.noColon;
    i = reader.readField(json, field, json.space(i + 1));
    if (i < 0) return i;
    i = json.space(i);
    const next = json.at(i);
    if (next === 0x7d) return i + 1;
    if (next !== 0x2c) return JSON_FAILURE.commaOrBrace;
    i = json.space(i + 1);
  }
}
