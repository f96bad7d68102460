// What a slice's source delivers (SliceContext.records) and how its hits may be read straight from
// their bytes: the contract the paging calls, the readers of decoding/ and the sources implement, and
// what a format that takes columns hands the columns reader (ColumnCoercers).
import type { ColumnType, ColumnValue, RecordId, RecordShape } from "./record-batch.js";

/**
 * What a source's paging hands a hit that a reader took: the record's identity (a TakenRecord for a
 * columns reader, which says where its values are) and, for a lines reader, its `_source` bytes.
 */
export interface ReadHit {
  row: RecordId;
  source: Uint8Array | undefined;
  /** Where the hit's bytes end (read as a prefix, wherever it closed). */
  end: number;
}

/**
 * Takes one hit from the bytes of a page as they stream in, checking them whole (JSON grammar and the
 * hit's shape) without building the parsed object. Undefined leaves the hit to the usual path (JSON.parse
 * and the wire schema), which decides and names what is wrong, so a reader only ever declines.
 */
export interface HitBytesReader {
  /**
   * `v3`: the hit has the v3 shape (`sort` required), else the v1/v2 one. With `prefix`, the hit starts
   * at `start` and may close anywhere before `end` (a page still streaming in): then the reader finds
   * where it ends, and the page need not be scanned for it first. The result is valid until the next call.
   */
  read(bytes: Uint8Array, start: number, end: number, v3: boolean, prefix?: boolean): ReadHit | undefined;
}

/**
 * The batches a slice's sinks take, which its source delivers (one request per attempt: a reader holds
 * the chunks it fills).
 * - `rows`: every hit parsed; with `json`, each row in `JSON.stringify` order with its JSON spliced from
 *   the service's bytes (a sink writes rows as JSON text), else the parsed `_source` itself.
 * - `lines` and `columns`: hits taken from their bytes by `reader` come as batches of that shape; a hit
 *   the reader declines is parsed and comes as `rows` (with JSON for `lines`), in order.
 */
export type RecordRequest =
  | { readonly shape: "rows"; readonly json: boolean; readonly reader?: undefined }
  | { readonly shape: Exclude<RecordShape, "rows">; readonly reader: HitBytesReader };

/**
 * Whether rows parsed for this request carry their spliced JSON in `JSON.stringify` order: for `rows`
 * when a sink writes JSON text, and for the hits a lines reader declined. Unset: a sink may.
 */
export function rowsCarryJson(request: RecordRequest | undefined): boolean {
  if (request === undefined) return true;
  return request.shape === "rows" ? request.json : request.shape === "lines";
}

/**
 * How a format that takes columns wants each value: per column type, the coercer a value read from a
 * hit goes through (the format's own, so a value taken from bytes equals one coerced from a parsed
 * row), and which values that coercer returns as they are (`KEEPS_*` of decoding/hit-column-values.ts),
 * so the reader skips the call for those.
 */
export interface ColumnCoercers {
  readonly coerce: Readonly<Record<ColumnType, (value: unknown) => ColumnValue>>;
  readonly keeps: Readonly<Record<ColumnType, number>>;
}
