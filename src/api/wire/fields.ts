// The fields the spec names for each data kind, with their search-engine types. The emulator's
// mappings and generator, and offline validation of pipelines, all start from this one table.

import type { MappingField } from "../../core/columns-from-mappings.js";

export type DataKind = "logs" | "workloads" | "jobs" | "tickets" | "metrics" | "billing";

/** Search-engine field types the field tables name (and a changed field of the emulator may take). */
export const MAPPING_TYPES = [
  "keyword",
  "text",
  "date",
  "float",
  "boolean",
  "long",
  "integer",
  "alias",
] as const;

/** Search-engine field types the mappings operations report. */
export type MappingType = (typeof MAPPING_TYPES)[number];

export interface FieldSpec {
  name: string;
  type: MappingType;
  /** Multi-field companions (`message.keyword`), listed by the mappings as separate entries. */
  companions?: readonly { suffix: string; type: MappingType }[];
}

function mappingType(text: string | undefined, entry: string): MappingType {
  const type = MAPPING_TYPES.find((known) => known === text);
  if (type === undefined) throw new Error(`field table entry "${entry}" names no mapping type`);
  return type;
}

/**
 * A field table written as the spec's table reads, in its order: `name:type` per field, and a
 * multi-field companion after it as `+type`, its suffix being its type (`message:text+keyword` is
 * `message` with `message.keyword`).
 */
function fieldTable(table: string): FieldSpec[] {
  return table
    .trim()
    .split(/\s+/)
    .map((entry) => {
      const [field = "", companion] = entry.split("+");
      const at = field.lastIndexOf(":");
      const spec: FieldSpec = { name: field.slice(0, at), type: mappingType(field.slice(at + 1), entry) };
      if (companion === undefined) return spec;
      return { ...spec, companions: [{ suffix: companion, type: mappingType(companion, entry) }] };
    });
}

/** Fields per kind, as the spec's "Common fields by data kind" table lists them. */
export const KIND_FIELDS: Readonly<Record<Exclude<DataKind, "billing">, readonly FieldSpec[]>> = {
  logs: fieldTable(`
    @timestamp:date timestamp:date message:text+keyword level:keyword logLevel:keyword
    regex.extractions.logLevel:keyword atr.domain_name:keyword event.origin:keyword
    function_name:keyword function_memory_size:integer request.method:keyword
    request.user_id:keyword request.endpoint:keyword response.status_code:integer user.id:keyword
  `),
  workloads: fieldTable(`
    workflow.name:keyword atr.domain_name:keyword atr.infra_type:keyword @timestamp:date
    workload.state:keyword workload.trigger:keyword ticket.type:keyword
    workload.execution_time.elapsed:float
  `),
  jobs: fieldTable(`
    job.name:keyword+text job.id:keyword job.state:keyword job.execution_time.start:date
    job.execution_time.end:date job.execution_time.elapsed:float workflow.name:keyword
    workflow.id:keyword workload.id:keyword workload.state:keyword atr.domain_name:keyword
    atr.infra_type:keyword atr.client:keyword atr.environment:keyword ticket.number:keyword
    ticket.type:keyword @timestamp:date
  `),
  tickets: fieldTable(`
    ticket.id:keyword ticket.number:keyword ticket.type:keyword
    ticket.short_description:text+keyword ticket.description:text ticket.state:keyword
    ticket.priority:keyword ticket.resolved:boolean ticket.mapped:boolean ticket.created_on:date
    ticket.last_updated_on:date atr.domain_name:keyword atr.infra_type:keyword atr.client:keyword
    atr.environment:keyword @timestamp:date
  `),
  metrics: fieldTable(`
    cloud.availability_zone:keyword cloud.provider:keyword cloud.machine.type:keyword
    cloud.instance.id:keyword cloud.instance.name:keyword atr.domain_name:keyword
    atr.infra_type:keyword atr.client:keyword atr.infra_data.private_dns:keyword
    atr.infra_data.aws_environment:keyword atr.infra_data.region:keyword
    atr.infra_data.cluster:keyword atr.infra_data.namespace:keyword host.hostname:keyword
    host.private_dns:keyword metricset.name:keyword agent.type:keyword agent.version:keyword
    event.dataset:keyword event.module:keyword service.type:keyword system.cpu.total.pct:float
    @timestamp:date
  `),
};

/** The billing summary record of /v1/query, one per domain. */
export const BILLING_FIELDS: readonly FieldSpec[] = fieldTable(`
  ticket_count:integer domain:keyword time_range:keyword client:keyword live_status:keyword
  WBS:keyword created:date infra_type:keyword billing_type:keyword point_of_contact:keyword
`);

/** A field table as the mappings operations list it: each field, then its multi-field companions. */
export function tableMappings(fields: readonly FieldSpec[]): MappingField[] {
  return fields.flatMap((field) => [
    { name: field.name, type: field.type },
    ...(field.companions ?? []).map((companion) => ({
      name: `${field.name}.${companion.suffix}`,
      type: companion.type,
    })),
  ]);
}
