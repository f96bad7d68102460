// The formats a sink can write, by the YAML `format` value. Adding a format adds one line.
import type { Format } from "./format.js";
import { ndjsonFormat } from "./ndjson.js";
import { parquetFormat } from "./parquet.js";

export const formats: Readonly<Record<Format["name"], Format>> = {
  ndjson: ndjsonFormat,
  parquet: parquetFormat,
};
