// The table `ddl` names a sink's output after, unless `--table` names it: the pipeline's name in
// snake_case, and for a pipeline of several sinks the sink's format too (and its number when two
// sinks share a format), so the statements of two sinks make two tables instead of one replacing
// the other.
import { snakeCaseName } from "../column-names.js";

function byFormat(base: string, formats: readonly string[], index: number): string {
  const format = formats[index] ?? "";
  const shared = formats.filter((other) => other === format).length > 1;
  return snakeCaseName(shared ? `${base}_${format}_${index + 1}` : `${base}_${format}`);
}

/**
 * @param formats each sink's format, in the pipeline's order
 * @param index the sink's position in `formats`
 * @example defaultTableName("demo", ["parquet", "ndjson"], 1) // "demo_ndjson"
 * @example defaultTableName("demo", ["ndjson", "ndjson"], 1) // "demo_ndjson_2"
 */
export function defaultTableName(pipeline: string, formats: readonly string[], index: number): string {
  const base = snakeCaseName(pipeline);
  if (formats.length <= 1) return base;
  const names = formats.map((_format, each) => byFormat(base, formats, each));
  // Formats an environment adds may be named so that two names meet (`csv` twice and `csv_2`): the
  // sink's number alone is then the only name sure to be its own.
  if (new Set(names).size < names.length) return `${base}_sink_${index + 1}`;
  return names[index] ?? base;
}
