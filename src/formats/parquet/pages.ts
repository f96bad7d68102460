// Writes one Parquet page, header and body, for a flat OPTIONAL column: dictionary pages and data pages
// in either layout. Version 1 data pages (DATA_PAGE) are the default because every engine reads them;
// version 2 (DATA_PAGE_V2) keeps the levels outside the compressed bytes and is an option.
import type { ByteWriter } from "hyparquet-writer";
import type { Encoding, PageHeader } from "hyparquet";
import { writePageHeader } from "hyparquet-writer/src/datapage.js";
import { snappyCompress } from "./snappy.js";
import { PageBytes, appendHybrid } from "./bytes.js";

export type Codec = "SNAPPY" | "UNCOMPRESSED";
export type PageVersion = 1 | 2;

/** Where a page landed in the output, for the chunk's metadata and offset index. */
export interface WrittenPage {
  offset: number;
  /** Header and compressed body. */
  compressedSize: number;
  /** Header and uncompressed body. */
  uncompressedSize: number;
}

/** A view, valid until the next page is compressed. */
const compress = (codec: Codec, bytes: Uint8Array): Uint8Array =>
  codec === "SNAPPY" ? snappyCompress(bytes) : bytes;

/** The page of `header`: `body` as it is written (compressed), and the size it had before. */
function writePage(
  out: ByteWriter,
  header: Omit<PageHeader, "uncompressed_page_size" | "compressed_page_size">,
  body: Uint8Array,
  uncompressedSize: number,
): WrittenPage {
  const offset = out.offset;
  writePageHeader(out, {
    ...header,
    uncompressed_page_size: uncompressedSize,
    compressed_page_size: body.length,
  });
  const headerSize = out.offset - offset;
  out.appendBytes(body);
  return { offset, compressedSize: out.offset - offset, uncompressedSize: headerSize + uncompressedSize };
}

/** A dictionary page: the distinct values, PLAIN, in `plain`. */
export function writeDictionaryPage(
  out: ByteWriter,
  plain: Uint8Array,
  count: number,
  codec: Codec,
  version: PageVersion,
): WrittenPage {
  return writePage(
    out,
    {
      type: "DICTIONARY_PAGE",
      // Writers of version 1 files (parquet-mr among them) name it PLAIN_DICTIONARY; same bytes as PLAIN.
      dictionary_page_header: { num_values: count, encoding: version === 1 ? "PLAIN_DICTIONARY" : "PLAIN" },
    },
    compress(codec, plain),
    plain.length,
  );
}

/** One data page's rows: their definition levels (1 present, 0 null) and their encoded values. */
interface DataPage {
  /** The whole chunk's definition levels; the page covers `[start, end)` of them. */
  levels: Uint8Array;
  start: number;
  end: number;
  nulls: number;
  /** The page's non-null values, encoded with `encoding`. */
  values: Uint8Array;
  encoding: Encoding;
}

const levelBytes = new PageBytes(1 << 12);
const bodyBytes = new PageBytes(1 << 16);

export function writeDataPage(
  out: ByteWriter,
  page: DataPage,
  codec: Codec,
  version: PageVersion,
): WrittenPage {
  const rows = page.end - page.start;
  levelBytes.reset();
  appendHybrid(levelBytes, page.levels, page.start, page.end, 1);
  const levels = levelBytes.bytes();
  if (version === 2) {
    const values = compress(codec, page.values);
    bodyBytes.reset();
    bodyBytes.append(levels);
    bodyBytes.append(values);
    return writePage(
      out,
      {
        type: "DATA_PAGE_V2",
        data_page_header_v2: {
          num_values: rows,
          num_nulls: page.nulls,
          num_rows: rows,
          encoding: page.encoding,
          definition_levels_byte_length: levels.length,
          repetition_levels_byte_length: 0,
          is_compressed: codec !== "UNCOMPRESSED",
        },
      },
      bodyBytes.bytes(),
      levels.length + page.values.length,
    );
  }
  // Version 1: the levels, prefixed by their length, and the values are compressed together.
  bodyBytes.reset();
  bodyBytes.int32(levels.length);
  bodyBytes.append(levels);
  bodyBytes.append(page.values);
  return writePage(
    out,
    {
      type: "DATA_PAGE",
      data_page_header: {
        num_values: rows,
        encoding: page.encoding,
        definition_level_encoding: "RLE",
        repetition_level_encoding: "RLE",
      },
    },
    compress(codec, bodyBytes.bytes()),
    bodyBytes.length,
  );
}
