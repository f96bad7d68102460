// Joins whole Parquet files of one schema into one file without decoding a value: each row group's
// bytes are copied as they are, and the footer is written again with every offset moved to where its
// row group now lies. A batch export's partition files become the slice's file this way (merge-parts).
import { parquetMetadata, readOffsetIndex } from "hyparquet";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import type { SchemaElement } from "hyparquet-writer";
import { SinkError } from "../../errors.js";
import { CREATED_BY, placeRowGroup } from "./row-group.js";
import type { ColumnIndexes, RowGroupMeta } from "./row-group.js";

/** A file to join was written with other columns: the caller merges row by row instead. */
export class JoinMismatchError extends SinkError {
  constructor(message: string) {
    super(message, { code: "SINK_JOIN_MISMATCH" });
  }
}

const MAGIC = new Uint8Array([0x50, 0x41, 0x52, 0x31]);

const describe = (schema: readonly SchemaElement[]): string =>
  schema
    .map((element) =>
      [
        element.name,
        element.type,
        element.converted_type,
        element.repetition_type,
        element.num_children,
      ].join(":"),
    )
    .join(",");

/**
 * The bytes of one Parquet file holding the row groups of `files`, in order. Each file is read whole,
 * one at a time (its footer is at its end); memory holds one file, never its decoded rows.
 * @example
 * for await (const chunk of joinParquetFiles(readEach(paths), schema, "SNAPPY")) await writer.write(chunk);
 */
export async function* joinParquetFiles(
  files: AsyncIterable<Uint8Array>,
  schema: SchemaElement[],
  codec: "SNAPPY" | "UNCOMPRESSED",
): AsyncGenerator<Uint8Array> {
  const footer = new ByteWriter();
  const writer = new ParquetWriter({ writer: footer, schema, codec, createdBy: CREATED_BY });
  const expected = describe(schema);
  yield MAGIC;
  let at = MAGIC.length;
  for await (const file of files) {
    const buffer = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
    const metadata = parquetMetadata(buffer);
    if (describe(metadata.schema) !== expected)
      throw new JoinMismatchError("a partition file has other columns than the sink writes now");
    for (const source of metadata.row_groups) {
      // Optional, and not written by hyparquet-writer; it would point into the old file.
      delete source.file_offset;
      const { rowGroup, indexes, start, end } = detach(source, buffer);
      placeRowGroup({ bytes: file, rowGroup, indexes }, at - start);
      writer.row_groups.push(rowGroup);
      writer.num_rows += rowGroup.num_rows;
      writer.pendingIndexes.push(...indexes);
      at += end - start;
      yield file.subarray(start, end);
    }
  }
  // The writer wrote the magic into `footer` when it was made; the footer starts where the data ends.
  footer.index = 0;
  footer.offset = at;
  writer.finish();
  yield footer.getBytes();
}

/**
 * A row group as the reader gave it, as the writer takes it: its byte range in the file, and its
 * chunks without the places of the file's page indexes (written again after the joined row groups).
 */
function detach(
  source: RowGroupMeta,
  buffer: ArrayBuffer,
): { rowGroup: RowGroupMeta; indexes: ColumnIndexes[]; start: number; end: number } {
  let start = Number.POSITIVE_INFINITY;
  let end = 0;
  const indexes: ColumnIndexes[] = [];
  for (const chunk of source.columns) {
    const meta = chunk.meta_data;
    if (meta === undefined)
      throw new JoinMismatchError("a partition file has a column chunk without metadata");
    const first = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
    start = Math.min(start, first);
    end = Math.max(end, first + Number(meta.total_compressed_size));
    const offsetIndex =
      chunk.offset_index_offset === undefined
        ? undefined
        : readOffsetIndex({ view: new DataView(buffer), offset: Number(chunk.offset_index_offset) });
    // Column indexes and bloom filters are not written by this exporter; the places of any are dropped.
    delete chunk.offset_index_offset;
    delete chunk.offset_index_length;
    delete chunk.column_index_offset;
    delete chunk.column_index_length;
    delete meta.bloom_filter_offset;
    delete meta.bloom_filter_length;
    indexes.push({ chunk, ...(offsetIndex === undefined ? {} : { offsetIndex }) });
  }
  return { rowGroup: source, indexes, start, end };
}
