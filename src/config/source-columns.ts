// The columns a source's rows carry before transforms, known offline from the kind's field table (the
// run asks the service's mappings instead): what config/ checks the transforms against.
import { tableMappings } from "../kinds/hit-columns.js";
import { columnsFromMappings } from "../core/columns-from-mappings.js";
import type { Column } from "../core/contracts.js";
import type { KindTable } from "../components/registry.js";
import type { SourceConfig } from "./source-schema.js";

/**
 * Columns of the rows a source yields, or undefined when they cannot be known offline: aggregation
 * rows are named after the request's bucket keys, so checks on them are left to run time.
 */
export function sourceColumns(
  source: Pick<SourceConfig, "kind" | "strategy" | "fields">,
  kinds: KindTable,
): Column[] | undefined {
  if (source.strategy === "aggs") return undefined;
  const kind = kinds[source.kind];
  return kind.columns(columnsFromMappings(tableMappings(kind.fields)), source);
}
