// What the hit columns reader (hit-columns-reader.ts) takes and gives: its options, the outcome of one
// read, and the reader's contract.
import type { ColumnCoercers } from "../core/hit-reader.js";
import type { ColumnValue } from "../core/record-batch.js";

export interface HitColumnsOptions {
  /** v3 hits carry `_score` (a number or null) and `sort`; v2 hits may leave `_score` out. */
  v3: boolean;
  /** The format's coercers (Format.takes), which make each value the column's. */
  coercers: ColumnCoercers;
}

/**
 * The outcome of one `read`, in one object the reader reuses: valid until its next `read`.
 * `failure` is undefined when the hit was read; otherwise it names what the reader refused, nothing
 * was written, and the caller parses the hit with JSON.parse, whose schema check names the problem.
 */
export interface HitColumnsRead {
  failure: string | undefined;
  id: string;
  index: string;
  /**
   * The fields no column holds, as `unknownFields` names them; in the order met in the bytes (a field
   * whose key repeats is named where it first appears), which may differ from `unknownFields`' order.
   */
  unknownFields: readonly string[];
  /** The characters of the string values written to text columns (ColumnBuffers' size estimate). */
  textLength: number;
  /** Where the hit's bytes end: `end` itself, or, read as a prefix, wherever the hit closed. */
  end: number;
}

/** Reads the column values of hits; one per output file (it keeps per-read state). */
export interface HitColumnsReader {
  /**
   * Reads the hit in `bytes[start, end)` and, when it is valid, pushes one value onto each column's
   * array of `into` (in `columns` order). On failure nothing is pushed. With `prefix`, the hit starts
   * at `start` and may close anywhere before `end`; the result's `end` says where.
   * @example
   * const reader = createHitColumnsReader(columns, { v3: true, coercers });
   * const read = reader.read(element.bytes, element.start, element.end, values);
   * if (read.failure !== undefined) fallBackToJsonParse(element);
   */
  read(
    bytes: Uint8Array,
    start: number,
    end: number,
    into: ColumnValue[][],
    prefix?: boolean,
  ): HitColumnsRead;
}
