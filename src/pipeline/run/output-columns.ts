// The columns of a pipeline's output: the kind's fields from the service's mappings (or the
// aggregation's buckets), narrowed to the projected `fields`, then reshaped by the transforms.
import type { ServiceClient } from "../../api/client.js";
import { columnsFromMappings } from "../../core/columns-from-mappings.js";
import type { SourceSpec } from "../../kinds/source-spec.js";
import { aggregationSourceColumns } from "../../sources/aggregation.js";
import type { Column } from "../../core/contracts.js";
import { transformColumns } from "../../components/registry.js";
import type { KindTable, TransformStep, TransformTable } from "../../components/registry.js";

/** Columns rows carry as they leave the source. */
export async function sourceColumnsFromService(
  client: ServiceClient,
  source: SourceSpec,
  kinds: KindTable,
  signal?: AbortSignal,
): Promise<Column[]> {
  const kind = kinds[source.kind];
  if (source.strategy === "aggs") {
    return aggregationSourceColumns({ aggs: source.aggs ?? {}, sets: kind.aggregation?.sets(source) ?? [] });
  }
  return kind.columns(columnsFromMappings(await kind.mappings(client, source, signal)), source);
}

/** Columns after the transforms: what the sinks write. */
export function outputColumns(
  transforms: TransformTable,
  steps: readonly TransformStep[],
  sourceColumns: readonly Column[],
): readonly Column[] {
  return transformColumns(transforms, steps, sourceColumns).columns;
}
