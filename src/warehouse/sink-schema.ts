// Decides what one sink writes: the schema the transforms produce, compared with the pinned one under
// the sink's drift policy. The result names the encoder's columns and, when names change, maps rows.
import type { Column, Row } from "../pipeline/contracts.js";
import { createColumnReader } from "../formats/column-value.js";
import type { ColumnNaming } from "./column-names.js";
import { bindColumns, outputSchema } from "./output-schema.js";
import type { SchemaColumn, SourcedColumn } from "./output-schema.js";
import type { PinnedSchema } from "./pinned-schema.js";
import { reconcileSchema } from "./schema-drift.js";
import type { DriftPolicy, SchemaChange } from "./schema-drift.js";

export interface SinkSchemaInput {
  naming: ColumnNaming;
  policy: DriftPolicy;
  /** The columns after the transforms, with their source fields. */
  columns: readonly SourcedColumn[];
  /** The pin to compare with; none before the first successful run. */
  pinned: PinnedSchema | undefined;
  /** Names the sink in messages: `sink 1 (./out/jobs)`. */
  where: string;
}

export interface SinkSchema {
  /** Every file's columns, in order: the pin after this run. */
  columns: SchemaColumn[];
  changes: SchemaChange[];
  /** Whether the pin must be written: first run, or the policy changed it. */
  pinChanged: boolean;
  /** The columns the encoder writes (output names and pinned types). */
  encoderColumns: Column[];
  /** Rows keyed by output name in pinned order; undefined when the rows' own names are the output names. */
  conformRow: ((row: Row) => Row) | undefined;
}

/**
 * @example
 * const schema = resolveSinkSchema({ naming: "snake_case", policy, columns, pinned, where: "sink 1" });
 * createSink(config, { columns: schema.encoderColumns, ... }) // rows through schema.conformRow
 */
export function resolveSinkSchema(input: SinkSchemaInput): SinkSchema {
  const current = outputSchema(input.columns, input.naming);
  const outcome =
    input.pinned === undefined
      ? { columns: current, changes: [], pinChanged: true }
      : reconcileSchema(input.pinned.columns, current, input.policy, input.where);
  const encoderColumns = outcome.columns.map((column) => ({ name: column.name, type: column.type }));
  const renamed = input.naming === "snake_case";
  let conformRow: SinkSchema["conformRow"];
  if (renamed) {
    const readers = bindColumns(input.columns, input.naming, outcome.columns).map((binding) => ({
      name: binding.column.name,
      read: createColumnReader({ name: binding.from, type: binding.column.type }),
    }));
    conformRow = (row) => {
      const out: Record<string, unknown> = {};
      for (const reader of readers) out[reader.name] = reader.read(row) ?? null;
      return out;
    };
  }
  return { ...outcome, encoderColumns, conformRow };
}
