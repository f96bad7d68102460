// The fields the spec names for each data kind, with their search-engine types. The emulator's
// mappings and generator, and offline validation of pipelines, all start from this one table.

export type DataKind = "logs" | "workloads" | "jobs" | "tickets" | "metrics" | "billing";

/** Search-engine field types the mappings operations report. */
export type MappingType = "keyword" | "text" | "date" | "float" | "boolean" | "long" | "integer" | "alias";

export interface FieldSpec {
  name: string;
  type: MappingType;
  /** Multi-field companions (`message.keyword`), listed by the mappings as separate entries. */
  companions?: readonly { suffix: string; type: MappingType }[];
}

const keywordWithText = [{ suffix: "text", type: "text" }] as const;
const textWithKeyword = [{ suffix: "keyword", type: "keyword" }] as const;

/** Fields per kind, as the spec's "Common fields by data kind" table lists them. */
export const KIND_FIELDS: Readonly<Record<Exclude<DataKind, "billing">, readonly FieldSpec[]>> = {
  logs: [
    { name: "@timestamp", type: "date" },
    { name: "timestamp", type: "date" },
    { name: "message", type: "text", companions: textWithKeyword },
    { name: "level", type: "keyword" },
    { name: "logLevel", type: "keyword" },
    { name: "regex.extractions.logLevel", type: "keyword" },
    { name: "atr.domain_name", type: "keyword" },
    { name: "event.origin", type: "keyword" },
    { name: "function_name", type: "keyword" },
    { name: "function_memory_size", type: "integer" },
    { name: "request.method", type: "keyword" },
    { name: "request.user_id", type: "keyword" },
    { name: "request.endpoint", type: "keyword" },
    { name: "response.status_code", type: "integer" },
    { name: "user.id", type: "keyword" },
  ],
  workloads: [
    { name: "workflow.name", type: "keyword" },
    { name: "atr.domain_name", type: "keyword" },
    { name: "atr.infra_type", type: "keyword" },
    { name: "@timestamp", type: "date" },
    { name: "workload.state", type: "keyword" },
    { name: "workload.trigger", type: "keyword" },
    { name: "ticket.type", type: "keyword" },
    { name: "workload.execution_time.elapsed", type: "float" },
  ],
  jobs: [
    { name: "job.name", type: "keyword", companions: keywordWithText },
    { name: "job.id", type: "keyword" },
    { name: "job.state", type: "keyword" },
    { name: "job.execution_time.start", type: "date" },
    { name: "job.execution_time.end", type: "date" },
    { name: "job.execution_time.elapsed", type: "float" },
    { name: "workflow.name", type: "keyword" },
    { name: "workflow.id", type: "keyword" },
    { name: "workload.id", type: "keyword" },
    { name: "workload.state", type: "keyword" },
    { name: "atr.domain_name", type: "keyword" },
    { name: "atr.infra_type", type: "keyword" },
    { name: "atr.client", type: "keyword" },
    { name: "atr.environment", type: "keyword" },
    { name: "ticket.number", type: "keyword" },
    { name: "ticket.type", type: "keyword" },
    { name: "@timestamp", type: "date" },
  ],
  tickets: [
    { name: "ticket.id", type: "keyword" },
    { name: "ticket.number", type: "keyword" },
    { name: "ticket.type", type: "keyword" },
    { name: "ticket.short_description", type: "text", companions: textWithKeyword },
    { name: "ticket.description", type: "text" },
    { name: "ticket.state", type: "keyword" },
    { name: "ticket.priority", type: "keyword" },
    { name: "ticket.resolved", type: "boolean" },
    { name: "ticket.mapped", type: "boolean" },
    { name: "ticket.created_on", type: "date" },
    { name: "ticket.last_updated_on", type: "date" },
    { name: "atr.domain_name", type: "keyword" },
    { name: "atr.infra_type", type: "keyword" },
    { name: "atr.client", type: "keyword" },
    { name: "atr.environment", type: "keyword" },
    { name: "@timestamp", type: "date" },
  ],
  metrics: [
    { name: "cloud.availability_zone", type: "keyword" },
    { name: "cloud.provider", type: "keyword" },
    { name: "cloud.machine.type", type: "keyword" },
    { name: "cloud.instance.id", type: "keyword" },
    { name: "cloud.instance.name", type: "keyword" },
    { name: "atr.domain_name", type: "keyword" },
    { name: "atr.infra_type", type: "keyword" },
    { name: "atr.client", type: "keyword" },
    { name: "atr.infra_data.private_dns", type: "keyword" },
    { name: "atr.infra_data.aws_environment", type: "keyword" },
    { name: "atr.infra_data.region", type: "keyword" },
    { name: "atr.infra_data.cluster", type: "keyword" },
    { name: "atr.infra_data.namespace", type: "keyword" },
    { name: "host.hostname", type: "keyword" },
    { name: "host.private_dns", type: "keyword" },
    { name: "metricset.name", type: "keyword" },
    { name: "agent.type", type: "keyword" },
    { name: "agent.version", type: "keyword" },
    { name: "event.dataset", type: "keyword" },
    { name: "event.module", type: "keyword" },
    { name: "service.type", type: "keyword" },
    { name: "system.cpu.total.pct", type: "float" },
    { name: "@timestamp", type: "date" },
  ],
};

/** The billing summary record of /v1/query, one per domain. */
export const BILLING_FIELDS: readonly FieldSpec[] = [
  { name: "ticket_count", type: "integer" },
  { name: "domain", type: "keyword" },
  { name: "time_range", type: "keyword" },
  { name: "client", type: "keyword" },
  { name: "live_status", type: "keyword" },
  { name: "WBS", type: "keyword" },
  { name: "created", type: "date" },
  { name: "infra_type", type: "keyword" },
  { name: "billing_type", type: "keyword" },
  { name: "point_of_contact", type: "keyword" },
];
