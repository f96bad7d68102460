// Reads the row count of a Parquet file from its footer while the bytes stream past, for `verify`.
import { parquetMetadata } from "hyparquet";
import { SinkError } from "../../errors.js";

/** A Parquet footer bigger than this is not one we wrote. */
const MAX_FOOTER_BYTES = 16 * 1024 * 1024;

/** Streams the file once; memory holds at most the last `maxFooterBytes` (plus one chunk), never the file. */
export async function countParquetRows(
  chunks: AsyncIterable<Uint8Array>,
  maxFooterBytes = MAX_FOOTER_BYTES,
): Promise<number> {
  let tail: Uint8Array[] = [];
  let tailBytes = 0;
  let head: Uint8Array | undefined;
  for await (const chunk of chunks) {
    head ??= chunk.subarray(0, 4);
    tail.push(chunk);
    tailBytes += chunk.length;
    while (tail.length > 1 && tailBytes - (tail[0]?.length ?? 0) >= maxFooterBytes) {
      tailBytes -= tail[0]?.length ?? 0;
      tail = tail.slice(1);
    }
  }
  const bytes = Buffer.concat(tail);
  if (head === undefined || Buffer.from(head).toString("latin1") !== "PAR1") {
    throw new SinkError("not a Parquet file: it does not start with PAR1", { code: "SINK_CORRUPT_FILE" });
  }
  try {
    return Number(parquetMetadata(bytes).num_rows);
  } catch (error) {
    throw new SinkError("the Parquet footer cannot be read; the file is truncated or corrupt", {
      code: "SINK_CORRUPT_FILE",
      cause: error,
    });
  }
}
