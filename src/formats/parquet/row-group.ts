// One Parquet row group encoded on its own, from column values to bytes and footer metadata, which the
// file then places at its own offset (see parquet-format.ts).
import { ByteWriter } from "hyparquet-writer";
import type { ParquetWriter } from "hyparquet-writer";
import type { ColumnChunk } from "hyparquet";
import type { Column } from "../../core/contracts.js";
import type { ParquetValue } from "../coerce-value.js";
import { writeColumnChunk } from "./column-chunk.js";
import type { Codec, PageVersion } from "./pages.js";

export type RowGroupMeta = ParquetWriter["row_groups"][number];
export type ColumnIndexes = ParquetWriter["pendingIndexes"][number];

/** The file a row group is for: its columns, codec and data page version. */
export interface RowGroupFile {
  columns: Column[];
  codec: Codec;
  pageVersion: PageVersion;
}

interface RowGroupTask extends RowGroupFile {
  /** One array of values per column, in the order of `columns`, all of the same length. */
  values: ParquetValue[][];
  /** About the bytes of the values, to size the output buffer once. */
  sizeHint: number;
}

interface EncodedRowGroup {
  bytes: Uint8Array;
  /** The row group's entry in the footer. */
  rowGroup: RowGroupMeta;
  /** Page indexes written at the end of the file; their `chunk`s are `rowGroup.columns`. */
  indexes: ColumnIndexes[];
}

export const CREATED_BY = "mdq-export";

/**
 * Encodes `task` as a row group starting at offset 0: its bytes, its footer entry and its page indexes,
 * so row groups can be encoded before the ones in front of them have their size (see `placeRowGroup`).
 */
export function encodeRowGroup(task: RowGroupTask): EncodedRowGroup {
  const rows = task.values[0]?.length ?? 0;
  if (rows === 0) throw new Error("a row group needs at least one row");
  // Snappy pages of our rows come to about a third of the values' size; a larger row group grows it.
  const writer = new ByteWriter(Math.max(1 << 16, Math.ceil(task.sizeHint / 2)));
  const columns: ColumnChunk[] = [];
  const indexes: ColumnIndexes[] = [];
  task.columns.forEach((column, index) => {
    const values = task.values[index];
    if (values?.length !== rows) throw new Error(`column ${column.name} has other rows than the first`);
    const encoded = writeColumnChunk(writer, column, values, task.codec, task.pageVersion);
    columns.push(encoded.chunk);
    indexes.push(encoded);
  });
  let uncompressed = 0n;
  for (const chunk of columns) uncompressed += chunk.meta_data?.total_uncompressed_size ?? 0n;
  const rowGroup: RowGroupMeta = {
    columns,
    total_byte_size: uncompressed,
    num_rows: BigInt(rows),
    total_compressed_size: BigInt(writer.offset),
  };
  return { bytes: new Uint8Array(writer.buffer, 0, writer.index), rowGroup, indexes };
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
