// What a slice's source delivers (RecordRequest), from what its sinks' formats say they take
// (Format.takes): the one place a run decides whether the service's hits are parsed. Lines and
// columns are asked for only where nothing reads a record's fields on the way: no transform, no
// renaming into a pinned schema, no record field in a file's path.
import type { Column } from "../../core/contracts.js";
import type { RecordRequest } from "../../core/hit-reader.js";
import { createSpliceReader } from "../../decoding/splice-reader.js";
import { createTakenColumnsReader } from "../../decoding/taken-columns.js";
import { pathReadsRecords } from "../../sinks/sink.js";
import type { SinkRuntime } from "./sink-runtime.js";

/**
 * A factory of the slice's request, called once per attempt: a reader holds the chunks it fills.
 * `columns` are the columns rows carry after the transforms, whose names the unknown-field report
 * knows: a columns reader names the fields outside them, so only a sink writing those may take columns.
 * @example
 * const records = recordRequest(sinks, pipeline.transforms.length, prepared.columns);
 * runSlice(slice, { source, transforms, sinks, records: records() }, options);
 */
export function recordRequest(
  sinks: readonly SinkRuntime[],
  transforms: number,
  columns: readonly Column[],
): () => RecordRequest {
  // A sink that writes JSON text shows key order, and copies each row's JSON from the service's bytes.
  const json = sinks.some((sink) => sink.format.takes.shape === "lines");
  const rows = (): RecordRequest => ({ shape: "rows", json });
  if (transforms > 0 || !sinks.every(readsNoField)) return rows;
  if (sinks.every((sink) => sink.format.takes.shape === "lines" && !sink.format.columnar))
    return () => ({ shape: "lines", reader: createSpliceReader() });
  const [only] = sinks;
  const takes = only?.format.takes;
  if (
    sinks.length === 1 &&
    only !== undefined &&
    takes?.shape === "columns" &&
    sameNames(only.columns, columns)
  )
    return () => ({ shape: "columns", reader: createTakenColumnsReader(only.columns, takes.coercers) });
  return rows;
}

/** A sink that neither renames records into its schema nor names its files by their fields. */
function readsNoField(sink: SinkRuntime): boolean {
  return sink.schema.conformRow === undefined && !pathReadsRecords(sink.config);
}

/** Whether two column lists hold the same names, whatever their order. */
function sameNames(left: readonly Column[], right: readonly Column[]): boolean {
  if (left.length !== right.length) return false;
  const names = new Set(left.map((column) => column.name));
  return right.every((column) => names.has(column.name));
}
