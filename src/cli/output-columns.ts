// The columns of a pipeline's output: the kind's fields from the service's v3 mappings (or the
// billing summary's fields), narrowed to the projected `fields`, then reshaped by the transforms.
import type { ServiceClient } from "../api/client.js";
import type { RequestOf } from "../api/service-call.js";
import { BILLING_FIELDS } from "../api/wire/fields.js";
import type { Pipeline } from "../config/pipeline-schema.js";
import { COLUMN_TYPES } from "../config/source-columns.js";
import { columnsFromMappings } from "../formats/columns-from-mappings.js";
import type { MappingField } from "../formats/columns-from-mappings.js";
import type { Column } from "../pipeline/contracts.js";
import { transformColumns } from "../pipeline/registry.js";
import { aggregationSourceColumns } from "../sources/aggregation.js";

const HIT_COLUMNS: readonly Column[] = [
  { name: "_id", type: "string" },
  { name: "_index", type: "string" },
];

/** The v3 mappings of the source's kind (a union over its app types), sorted by name as the service sorts them. */
export async function fetchMappings(
  client: ServiceClient,
  source: Pipeline["source"],
  signal?: AbortSignal,
): Promise<MappingField[]> {
  const byName = new Map<string, MappingField>();
  const add = (fields: readonly MappingField[]): void => {
    for (const field of fields) if (!byName.has(field.name)) byName.set(field.name, field);
  };
  const options = { signal };
  switch (source.kind) {
    case "workloads":
    case "jobs":
    case "tickets": {
      const path = `/v3/${source.kind}/mappings` as const;
      add((await client.call(path, { includes_eu: source.includes_eu }, options)).data.fields);
      break;
    }
    case "logs":
    case "metrics": {
      // v1 calls containers caas; the mappings know them as kubernetes. eventops logs are always
      // serverless (v1 eventops pipelines name no app_type), and its mappings take no other app_type.
      const appTypes = new Set(
        source.kind === "logs" && source.application === "eventops"
          ? ["serverless"]
          : source.app_type.map((appType) => (appType === "caas" ? "kubernetes" : appType)),
      );
      if (appTypes.size === 0) appTypes.add("ec2");
      for (const appType of appTypes) {
        const body = {
          application: source.application ?? "atr",
          app_type: appType,
          includes_eu: source.includes_eu,
        };
        const response =
          source.kind === "logs"
            ? await client.call("/v3/logs/mappings", body as RequestOf<"/v3/logs/mappings">, options)
            : await client.call("/v3/metrics/mappings", body as RequestOf<"/v3/metrics/mappings">, options);
        add(response.data.fields);
      }
      break;
    }
    case "billing":
      break;
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Columns rows carry as they leave the source. */
export async function sourceColumnsFromService(
  client: ServiceClient,
  pipeline: Pipeline,
  signal?: AbortSignal,
): Promise<Column[]> {
  const source = pipeline.source;
  if (source.strategy === "aggs") return aggregationSourceColumns(source);
  if (source.kind === "billing")
    return BILLING_FIELDS.map((field) => ({ name: field.name, type: COLUMN_TYPES[field.type] }));
  const mapped = columnsFromMappings(await fetchMappings(client, source, signal));
  const wanted =
    source.fields === undefined ? mapped : mapped.filter((column) => source.fields?.includes(column.name));
  return [...HIT_COLUMNS, ...wanted];
}

/** Columns after the transforms: what the sinks write. */
export function outputColumns(pipeline: Pipeline, sourceColumns: readonly Column[]): readonly Column[] {
  return transformColumns(pipeline.transforms, sourceColumns).columns;
}
