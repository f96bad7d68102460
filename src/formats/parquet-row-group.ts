// One Parquet row group encoded on its own, from column values to bytes and footer metadata, so it can
// be encoded in a worker thread while the main thread reads the next one (see parquet.ts).
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import type { SchemaElement } from "hyparquet-writer";
import type { ParquetValue } from "./coerce-value.js";

export type RowGroupMeta = ParquetWriter["row_groups"][number];
export type ColumnIndexes = ParquetWriter["pendingIndexes"][number];

/** The file a row group is for: its schema and codec. */
export interface RowGroupFile {
  /** The file's schema: its root element and one per column. */
  schema: SchemaElement[];
  codec: "SNAPPY" | "UNCOMPRESSED";
}

export interface RowGroupTask extends RowGroupFile {
  /** Column names and their values, one array per column, all of the same length. */
  names: string[];
  values: ParquetValue[][];
  /** About the bytes of the values, to size the output buffer once. */
  sizeHint: number;
}

export interface EncodedRowGroup {
  bytes: Uint8Array;
  /** The row group's entry in the footer. */
  rowGroup: RowGroupMeta;
  /** Page indexes written at the end of the file; their `chunk`s are `rowGroup.columns`. */
  indexes: ColumnIndexes[];
}

export const CREATED_BY = "mdq-export (hyparquet-writer)";

/**
 * Encodes `task` as hyparquet-writer writes a row group into a whole file: the same bytes and the same
 * metadata, with offsets counted from the row group's start (see `placeRowGroup`), so row groups can be
 * encoded before the ones in front of them have their size.
 */
export function encodeRowGroup(task: RowGroupTask): EncodedRowGroup {
  const rows = task.values[0]?.length ?? 0;
  // Snappy pages of our rows come to about a third of the values' size; a larger row group grows it.
  const writer = new ByteWriter(Math.max(1 << 16, Math.ceil(task.sizeHint / 2)));
  const parquet = new ParquetWriter({
    writer,
    schema: task.schema,
    codec: task.codec,
    createdBy: CREATED_BY,
  });
  // The constructor wrote the file's magic bytes, which are not part of a row group.
  writer.index = 0;
  writer.offset = 0;
  void parquet.write({
    columnData: task.names.map((name, index) => ({ name, data: task.values[index] as ParquetValue[] })),
    rowGroupSize: rows,
  });
  const rowGroup = parquet.row_groups[0];
  if (rowGroup === undefined) throw new Error("a row group needs at least one row");
  return { bytes: new Uint8Array(writer.buffer, 0, writer.index), rowGroup, indexes: parquet.pendingIndexes };
}

/**
 * Moves an encoded row group to where it lands in the file: the offsets its footer entry and page
 * indexes give are absolute. (The column and offset indexes' own offsets are set when the footer is
 * written.)
 */
export function placeRowGroup(encoded: EncodedRowGroup, at: number): EncodedRowGroup {
  const shift = BigInt(at);
  for (const chunk of encoded.rowGroup.columns) {
    chunk.file_offset += shift;
    const meta = chunk.meta_data;
    if (meta === undefined) continue;
    meta.data_page_offset += shift;
    if (meta.dictionary_page_offset !== undefined) meta.dictionary_page_offset += shift;
  }
  for (const { offsetIndex } of encoded.indexes)
    for (const page of offsetIndex?.page_locations ?? []) page.offset += shift;
  return encoded;
}
