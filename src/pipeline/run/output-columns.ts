// The columns rows carry as they leave a pipeline's source: the kind's fields from the service's
// mappings (or the aggregation's buckets), narrowed to the projected `fields`.
import type { ServiceClient } from "../../api/client.js";
import { readMappings } from "../../core/columns-from-mappings.js";
import type { SourceSpec } from "../../kinds/source-spec.js";
import { aggregationSourceColumns } from "../../kinds/aggregation-source.js";
import type { Column } from "../../core/contracts.js";
import type { KindTable } from "../../components/registry.js";
import type { Logger } from "../../logger.js";

/**
 * Columns rows carry as they leave the source. A field the mappings give several types (two app
 * types, two index versions) is written in a column that holds them all, with a warning on `log`.
 */
export async function sourceColumnsFromService(
  client: ServiceClient,
  source: SourceSpec,
  kinds: KindTable,
  signal?: AbortSignal,
  log?: Pick<Logger, "warn">,
): Promise<Column[]> {
  const kind = kinds[source.kind];
  if (source.strategy === "aggs") {
    return aggregationSourceColumns({ aggs: source.aggs ?? {}, sets: kind.aggregation?.sets(source) ?? [] });
  }
  const { columns, widened } = readMappings(await kind.mappings(client, source, signal));
  const kept = kind.columns(columns, source);
  const written = new Set(kept.map((column) => column.name));
  for (const field of widened) {
    if (!written.has(field.name)) continue;
    const alias = field.types.includes("alias")
      ? " (an alias takes the type of the field's other entries)"
      : "";
    log?.warn(
      { field: field.name, mapping_types: field.types, column_type: field.column },
      `The service maps the field as ${field.types.join(" and ")} across app types or indexes; its column is ${field.column}, which holds them all${alias}.`,
    );
  }
  return kept;
}
