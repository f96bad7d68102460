// The worker thread's side of Parquet encoding: a row group's records as NDJSON bytes in, its Parquet
// bytes and footer metadata out. Bytes cross the thread boundary both ways by transfer, not copy: the
// records' objects and values are made and dropped here, so their garbage is this thread's too.
import { Tinypool, markMovable } from "tinypool";
import type { Row } from "../core/contracts.js";
import { ColumnBuffers } from "./parquet-column-buffers.js";
import { encodeRowGroup } from "./parquet-row-group.js";
import { parseJson } from "../decoding/json-exact.js";
import { errorCode } from "../errors.js";
import type { ErrorCode } from "../errors.js";
import type { RowGroupFile } from "./parquet-row-group.js";

export interface LinesTask extends RowGroupFile {
  /** The row group's records, one JSON per line, each line ending in `\n`. */
  lines: Uint8Array;
  /** Records in `lines`, checked. */
  rows: number;
}

/**
 * A row group the worker refused with one of the product's errors (a value an int64 column does not
 * take): its code and message come back as a value, since an error crossing the thread keeps neither
 * its class nor its code, and the file's thread raises it again.
 */
export interface RefusedRowGroup {
  refused: { code: ErrorCode; message: string };
}

/** Rows parsed and read into columns this many at a time, so parsed records do not pile up. */
const PARSE_BATCH = 1000;

export function encodeLinesInWorker(task: LinesTask): object {
  try {
    return encodeLines(task);
  } catch (error) {
    const code = errorCode(error);
    if (code === undefined) throw error;
    const refused: RefusedRowGroup = { refused: { code, message: (error as Error).message } };
    return refused;
  }
}

function encodeLines(task: LinesTask): object {
  const buffers = new ColumnBuffers(task.columns);
  const { lines } = task;
  const text = Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength);
  let rows: Row[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf(0x0a, start);
    const stop = end === -1 ? text.length : end;
    // Integers beyond 2^53 as bigints of their digits, as the thread reads them (decoding/json-exact.ts).
    rows.push(parseJson(text.toString("utf8", start, stop)) as Row);
    start = stop + 1;
    if (rows.length === PARSE_BATCH) {
      buffers.append(rows, 0, rows.length);
      rows = [];
    }
  }
  buffers.append(rows, 0, rows.length);
  if (buffers.rows !== task.rows) {
    throw new Error(`a row group of ${task.rows} records arrived with ${buffers.rows} lines`);
  }
  const sizeHint = buffers.bytes;
  const encoded = encodeRowGroup({ ...task, values: buffers.take(), sizeHint });
  const movable = {
    [Tinypool.transferableSymbol]: encoded.bytes.buffer,
    [Tinypool.valueSymbol]: encoded,
  };
  markMovable(movable);
  return movable;
}
