// A row's JSON spliced from the service's own bytes: `{"_id":…,"_index":…,` and then the hit's
// `_source` bytes as they came, so an NDJSON output writes the record without serialising it again.
import type { RowJson } from "../core/contracts.js";
import { copiesAsParsed } from "../decoding/json-copy.js";
import { wellFormedJson } from "../decoding/json-exact.js";
import { INDEX_KEY } from "../decoding/hit-walk.js";
import type { UniqueKeys } from "../decoding/json-keys.js";

/** A service hit as rows are made from it: its identity and its `_source`. */
export interface HitLike {
  _id: string;
  _index: string;
  _source: Readonly<Record<string, unknown>>;
}

/**
 * A hit a bytes reader took from the page (the reader of SliceContext.records) instead of a parsed hit:
 * it has no `_source`; it is the record's identity and, from a columns reader, where its values are.
 */
export interface TakenRow {
  _id: string;
  _index: string;
  _source?: undefined;
  [field: string]: unknown;
}

/** A hit of a page as the paging hands it on: parsed, or taken from its bytes. */
export type PagedHit = HitLike | TakenRow;

const CLOSE = new Uint8Array([0x7d]);

/**
 * What `JSON.stringify(hitToRow(hit))` writes, built from `source` (the UTF-8 bytes of the hit's
 * `_source` exactly as sent, compact), or undefined when splicing could differ from it: a `_source`
 * with its own `_id` or `_index` (the row's would replace them in place), array-index keys
 * (serialised first), a key named twice in one object or a lone surrogate escape (checked with `keys`
 * for a parsed hit; a bytes reader declines those hits).
 * @example
 * rowJson({ _id: "a", _index: "jobs", _source: { n: 1 } }, Buffer.from('{"n":1}'))
 * // { head: '{"_id":"a","_index":"jobs",', tail: <bytes of '"n":1}'> }
 */
export function rowJson(
  hit: PagedHit,
  source: Uint8Array | undefined,
  keys: UniqueKeys,
): RowJson | undefined {
  if (source === undefined) return undefined;
  // A reader hands on the `_source` bytes only when they splice: compact, no key of the row's own,
  // no array-index key (see decoding/splice-reader.ts).
  if (hit._source === undefined) return splicedJson(hit, source.length <= 2, source);
  const parsed = hit._source;
  if (Object.hasOwn(parsed, "_id") || Object.hasOwn(parsed, "_index")) return undefined;
  let empty = true;
  for (const key in parsed) {
    // Array-index keys always enumerate first, so the first key tells whether there are any.
    if (INDEX_KEY.test(key)) return undefined;
    empty = false;
    break;
  }
  return copiesAsParsed(source, keys) ? splicedJson(hit, empty, source) : undefined;
}

/** Undefined when `_id` or `_index` holds a lone surrogate: the row is serialised, and it counted. */
function splicedJson(hit: PagedHit, empty: boolean, source: Uint8Array): RowJson | undefined {
  const head = `{"_id":${JSON.stringify(hit._id)},"_index":${JSON.stringify(hit._index)}`;
  if (wellFormedJson(head) !== head) return undefined;
  return empty ? { head, tail: CLOSE } : { head: `${head},`, tail: source.subarray(1) };
}
