// Decides what one sink writes: the schema the transforms produce, compared with the pinned one under
// the sink's drift policy. The result names the encoder's columns and, when names change, maps rows.
import type { Column, Row } from "../core/contracts.js";
import { createColumnReader } from "../formats/column-value.js";
import { setOwnField } from "../transforms/field-path.js";
import {
  checkColumnBounds,
  checkColumnCollisions,
  checkColumnCount,
  checkColumnNamesPrintable,
} from "./column-checks.js";
import { columnName, renamesColumns, rulesForColumns } from "./column-names.js";
import type { ColumnNamingRules } from "./column-names.js";
import { outputSchema } from "./output-schema.js";
import type { SchemaColumn, SourcedColumn } from "./output-schema.js";
import type { PinnedSchema } from "./pinned-schema.js";
import { reconcileSchema } from "./schema-drift.js";
import type { DriftPolicy, SchemaChange } from "./schema-drift.js";

/** The sink's naming rules (`namingRules`), its policy, and the columns it is handed. */
interface SinkSchemaInput extends ColumnNamingRules {
  policy: DriftPolicy;
  /** The columns after the transforms, with their source fields. */
  columns: readonly SourcedColumn[];
  /** The pin to compare with; none before the first successful run. */
  pinned: PinnedSchema | undefined;
  /** Names the sink in messages: `sink 1 (./out/jobs)`. */
  where: string;
  /** When a removed field's kept column is measured from; the run's start. */
  now?: Date | undefined;
}

export interface SinkSchema {
  /** Every file's columns, in order: the pin after this run. */
  columns: SchemaColumn[];
  changes: SchemaChange[];
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
  const rules = rulesForColumns(input, input.columns);
  // Bounds before naming: the names are the service's, and naming costs what they are long.
  checkColumnBounds(input.columns, input.policy, input.where);
  checkColumnCollisions(input.columns, rules, input.where);
  const current = outputSchema(input.columns, rules);
  checkColumnNamesPrintable(current, input.where);
  const outcome =
    input.pinned === undefined
      ? { columns: current, changes: [] }
      : reconcileSchema(input.pinned.columns, current, input.policy, input.where, input.now);
  // A pin carries its kept columns too; an old pin may have more than the bound or a name it refused.
  checkColumnCount(outcome.columns.length, input.policy, input.where);
  checkColumnNamesPrintable(outcome.columns, input.where);
  const encoderColumns = outcome.columns.map((column) => ({ name: column.name, type: column.type }));
  let conformRow: SinkSchema["conformRow"];
  if (renamesColumns(rules)) {
    // Each output column read under the name the transforms leave in the rows; names are one to one
    // here, since the collision check above refused any two that share one.
    const rowName = new Map(input.columns.map((column) => [columnName(column.name, rules), column.name]));
    const readers = outcome.columns.map((column) => ({
      name: column.name,
      read: createColumnReader({ name: rowName.get(column.name) ?? column.name, type: column.type }),
    }));
    conformRow = (row) => {
      const out: Record<string, unknown> = {};
      for (const reader of readers) setOwnField(out, reader.name, reader.read(row) ?? null);
      return out;
    };
  }
  return { ...outcome, encoderColumns, conformRow };
}
