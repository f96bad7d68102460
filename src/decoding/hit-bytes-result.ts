// What readHitBytes (hit-bytes.ts) gives: the hit's identity and the byte ranges an output splices,
// or why it was refused.

/** The hit schemas of api/wire/hits.ts: `hit` (v1 and v2 scroll) and `v3Hit` (with `sort`). */
export type HitShape = "hit" | "v3Hit";

/**
 * Why bytes were refused. With a key check (`readHitBytes`' `keys`), also `keys`: `_source` names a
 * key twice in one object (or writes one with escapes), and `surrogate`: it holds a lone surrogate
 * escape; JSON.parse takes both, but the bytes copied as they came would not say what it says. `syntax`: JSON.parse refuses them too. `shape`: JSON.parse accepts them, the
 * hit schema does not. `utf8`: a sequence that is not UTF-8 (decoding puts U+FFFD in its place, so the
 * bytes could not be copied as they are). `depth`: containers nested deeper than MAX_JSON_DEPTH.
 */
export type HitBytesRefusal = "syntax" | "shape" | "utf8" | "depth" | "keys" | "surrogate";

export interface HitBytes {
  ok: true;
  /** Where the hit's object closes (just past its `}`; whitespace after it is not counted). */
  end: number;
  /** `_index` and `_id` as JSON.parse decodes them; of a key given twice the last, as JSON.parse. */
  index: string;
  id: string;
  /** The `_source` object's bytes, from `{` to after `}`. */
  sourceStart: number;
  sourceEnd: number;
  /** `_source` has a key `_id` or `_index` of its own: a row's would replace it in place. */
  sourceHasIdentityKey: boolean;
  /** `_source` has an array-index key ("0", "17"): JSON.stringify writes those before the others. */
  sourceHasIndexKey: boolean;
  /** No whitespace outside strings anywhere in the bytes: as compact as JSON.stringify writes. */
  compact: boolean;
}

export interface HitBytesFailure {
  ok: false;
  reason: HitBytesRefusal;
}

export type HitBytesResult = HitBytes | HitBytesFailure;
