// Column values taken straight from the bytes of the service's hits, for an output whose encoder reads
// rows column by column (Parquet, whose coercers come through Format.takes): no hit is parsed and no row object holds its fields. Each hit
// becomes a TakenRecord, its identity and where its values are in a chunk of column arrays (a source
// hands them on as a columns batch); the encoder's column buffers read them there, and the
// unknown-field report reads the names the reader found. Parsing each hit and the garbage of the
// parsed objects were about two fifths of such an export's CPU (docs/performance.md).
import type { Column } from "../core/contracts.js";
import type { ColumnCoercers, HitBytesReader, ReadHit } from "../core/hit-reader.js";
import type { ColumnChunk, ColumnValue, TakenRecord } from "../core/record-batch.js";
import { HitColumnsReader } from "./hit-columns-reader.js";
import { NONE } from "./hit-slot-scanner.js";

const CHUNK_ROWS = 1000;

/**
 * A reader that takes each hit's values for `columns` (the encoder's, as named in the output) from its
 * bytes, each value made the column's by the format's `coercers`; it declines (the hit is then parsed)
 * whatever `HitColumnsReader` refuses.
 * @example
 * const reader = createTakenColumnsReader(sink.columns, parquetColumnCoercers);
 */
export function createTakenColumnsReader(
  columns: readonly Column[],
  coercers: ColumnCoercers,
): HitBytesReader {
  const readers: { v2?: HitColumnsReader; v3?: HitColumnsReader } = {};
  const taken: ReadHit = { row: { _id: "", _index: "" }, source: undefined, end: -1 };
  let chunk = newChunk(columns);
  let at = 0;
  return {
    read(bytes, start, end, v3, prefix = false) {
      const reader = v3
        ? (readers.v3 ??= new HitColumnsReader(columns, true, coercers))
        : (readers.v2 ??= new HitColumnsReader(columns, false, coercers));
      if (at === CHUNK_ROWS) {
        chunk = newChunk(columns);
        at = 0;
      }
      const read = reader.read(bytes, start, end, chunk.values, prefix, at);
      if (read.failure !== undefined) return undefined;
      chunk.unknown[at] = read.unknownFields.length === 0 ? NONE : [...read.unknownFields];
      chunk.textLengths[at] = read.textLength;
      if (read.loneSurrogate) chunk.loneSurrogates = true;
      const record: TakenRecord = { _id: read.id, _index: read.index, chunk, at };
      at += 1;
      taken.row = record;
      taken.end = read.end;
      return taken;
    },
  };
}

/**
 * A chunk whose arrays are made at their full length, written by index: arrays grown by `push` were
 * made again at each growth, about three times the values' own size in garbage (a third of a Parquet
 * export's allocation). Filled with null, so they hold any value from the start with no change of
 * their element kind on the way.
 */
function newChunk(columns: readonly Column[]): ColumnChunk {
  return {
    columns,
    values: columns.map(() => new Array<ColumnValue>(CHUNK_ROWS).fill(null)),
    unknown: new Array<readonly string[]>(CHUNK_ROWS).fill(NONE),
    textLengths: new Array<number>(CHUNK_ROWS).fill(0),
    loneSurrogates: false,
  };
}

/** Whether values taken for `taken` columns are those of `columns`: the same names and types, in order. */
export function sameColumns(taken: readonly Column[], columns: readonly Column[]): boolean {
  if (taken === columns) return true;
  if (taken.length !== columns.length) return false;
  return taken.every(
    (column, index) => column.name === columns[index]?.name && column.type === columns[index]?.type,
  );
}
