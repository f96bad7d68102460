// Encodes one column of a row group: its values (as the coercers give them) into a dictionary page when
// the column repeats itself, then data pages, with the chunk's statistics and offset index.
import type { ByteWriter } from "hyparquet-writer";
import type { ColumnChunk, Encoding, OffsetIndex } from "hyparquet";
import type { ColumnType } from "../../core/contracts.js";
import type { ParquetValue } from "../coerce-value.js";
import { PageBytes, appendHybrid, bitWidthOf } from "./bytes.js";
import { physicalTypes } from "./physical.js";
import type { Physical } from "./physical.js";
import { writeDataPage, writeDictionaryPage } from "./pages.js";
import type { Codec, PageVersion, WrittenPage } from "./pages.js";

/** A data page ends once its values reach about this many bytes (hyparquet-writer's default). */
const PAGE_BYTES = 1 << 20;
/** Values looked at before deciding a column is too varied for a dictionary. */
const DICTIONARY_SAMPLE = 1024;

interface ChunkColumn {
  name: string;
  type: ColumnType;
}

interface EncodedChunk {
  chunk: ColumnChunk;
  /** Present when the chunk has more than one data page, as hyparquet-writer writes it. */
  offsetIndex?: OffsetIndex;
}

/** Appends the column chunk of `values` to `out`. */
export function writeColumnChunk(
  out: ByteWriter,
  column: ChunkColumn,
  values: readonly ParquetValue[],
  codec: Codec,
  version: PageVersion,
): EncodedChunk {
  const physical = physicalTypes[column.type];
  const rows = values.length;
  const levels = new Uint8Array(rows);
  let nulls = 0;
  for (let i = 0; i < rows; i++) {
    const value = values[i];
    if (value === null || value === undefined) nulls++;
    else levels[i] = 1;
  }
  // A column without nulls is its own list of values present; only one with nulls is copied.
  const present = nulls === 0 ? values : values.filter((value) => value !== null && value !== undefined);
  const start = out.offset;
  const pages: WrittenPage[] = [];
  let dictionaryOffset: bigint | undefined;
  const dictionary = physical.dictionary ? buildDictionary(present) : undefined;
  let encoding: Encoding;
  let encodeRange: (from: number, to: number, into: PageBytes) => void;
  if (dictionary !== undefined) {
    const plain = new PageBytes(Math.max(64, dictionary.values.length * 8));
    for (const value of dictionary.values) physical.write(plain, value);
    const page = writeDictionaryPage(out, plain.bytes(), dictionary.values.length, codec, version);
    dictionaryOffset = BigInt(page.offset);
    pages.push(page);
    encoding = version === 1 ? "PLAIN_DICTIONARY" : "RLE_DICTIONARY";
    const width = bitWidthOf(dictionary.values.length - 1);
    encodeRange = (from, to, into) => {
      into.uint8(width);
      appendHybrid(into, dictionary.indexes, from, to, width);
    };
  } else {
    encoding = "PLAIN";
    encodeRange = (from, to, into) => physical.writeRange(into, present, from, to);
  }
  const dataOffset = out.offset;
  const dataPages = writeDataPages(out, { levels, present, physical, encodeRange, encoding, codec, version });
  pages.push(...dataPages.map((page) => page.written));
  const statistics = physical.statistics(dictionary?.values ?? present);
  const encodings: Encoding[] =
    dictionary === undefined
      ? ["RLE", "PLAIN"]
      : [version === 1 ? "PLAIN_DICTIONARY" : "PLAIN", "RLE", encoding];
  const dataPageType = version === 1 ? "DATA_PAGE" : "DATA_PAGE_V2";
  const chunk: ColumnChunk = {
    file_offset: BigInt(start),
    meta_data: {
      type: physical.type,
      encodings: [...new Set(encodings)],
      path_in_schema: [column.name],
      codec,
      num_values: BigInt(rows),
      total_uncompressed_size: BigInt(pages.reduce((sum, page) => sum + page.uncompressedSize, 0)),
      total_compressed_size: BigInt(out.offset - start),
      data_page_offset: BigInt(dataOffset),
      ...(dictionaryOffset === undefined ? {} : { dictionary_page_offset: dictionaryOffset }),
      statistics: { null_count: BigInt(rows - present.length), ...statistics },
      encoding_stats: [
        ...(dictionary === undefined
          ? []
          : [{ page_type: "DICTIONARY_PAGE" as const, encoding: encodings[0] as Encoding, count: 1 }]),
        { page_type: dataPageType, encoding, count: dataPages.length },
      ],
    },
  };
  if (dataPages.length <= 1) return { chunk };
  return {
    chunk,
    offsetIndex: {
      page_locations: dataPages.map(({ written, firstRow }) => ({
        offset: BigInt(written.offset),
        compressed_page_size: written.compressedSize,
        first_row_index: BigInt(firstRow),
      })),
    },
  };
}

interface PagesInput {
  levels: Uint8Array;
  present: readonly ParquetValue[];
  physical: Physical;
  encodeRange: (from: number, to: number, into: PageBytes) => void;
  encoding: Encoding;
  codec: Codec;
  version: PageVersion;
}

const valueBytes = new PageBytes(1 << 16);

/** Data pages of about PAGE_BYTES of values each (dictionary indexes counted as 4 bytes). */
function writeDataPages(out: ByteWriter, input: PagesInput): { written: WrittenPage; firstRow: number }[] {
  const { levels, present, physical } = input;
  const rows = levels.length;
  const fixedSize = input.encoding === "PLAIN" ? physical.size : 4;
  const written: { written: WrittenPage; firstRow: number }[] = [];
  let row = 0;
  let value = 0;
  do {
    const firstRow = row;
    const firstValue = value;
    let bytes = 0;
    while (row < rows && (bytes < PAGE_BYTES || row === firstRow)) {
      if (levels[row] === 1) {
        bytes += fixedSize ?? (present[value] as string).length;
        value++;
      }
      row++;
    }
    valueBytes.reset();
    input.encodeRange(firstValue, value, valueBytes);
    const page = writeDataPage(
      out,
      {
        levels,
        start: firstRow,
        end: row,
        nulls: row - firstRow - (value - firstValue),
        values: valueBytes.bytes(),
        encoding: input.encoding,
      },
      input.codec,
      input.version,
    );
    written.push({ written: page, firstRow });
  } while (row < rows);
  return written;
}

interface Dictionary {
  /** Distinct values in order of first appearance. */
  values: ParquetValue[];
  /** For each non-null value, its place in `values`. */
  indexes: Int32Array;
}

/**
 * A dictionary when it pays: given up early when the first values are nearly all distinct, and kept
 * when there are at most half as many distinct values as values (hyparquet-writer's rule, by count).
 */
function buildDictionary(present: readonly ParquetValue[]): Dictionary | undefined {
  if (present.length === 0) return undefined;
  const places = new Map<ParquetValue, number>();
  const values: ParquetValue[] = [];
  const indexes = new Int32Array(present.length);
  for (let i = 0; i < present.length; i++) {
    const value = present[i] as ParquetValue;
    let place = places.get(value);
    if (place === undefined) {
      // A map does not tell -0 from 0; a dictionary would write the sign away.
      if (value === 0 && Object.is(value, -0)) return undefined;
      place = values.length;
      places.set(value, place);
      values.push(value);
      if (i < DICTIONARY_SAMPLE && values.length > DICTIONARY_SAMPLE * 0.9) return undefined;
    }
    indexes[i] = place;
  }
  return values.length * 2 <= present.length ? { values, indexes } : undefined;
}
