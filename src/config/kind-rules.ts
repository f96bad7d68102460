// What the service offers per data kind, from the spec: applications, app_types per API version,
// retrieval strategies, and the field names usable in fields, filters and aggs.
import { BILLING_FIELDS, KIND_FIELDS } from "../api/wire/fields.js";
import type { DataKind, FieldSpec } from "../api/wire/fields.js";

export const APPLICATIONS = ["atr", "klewer", "eventops", "quasar"] as const;
export type Application = (typeof APPLICATIONS)[number];

export const APP_TYPES = ["ec2", "caas", "kubernetes", "serverless"] as const;
export type AppType = (typeof APP_TYPES)[number];

export const STRATEGIES = ["auto", "scroll", "pit", "batch", "aggs"] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** The API version each kind is exported through (logs may choose the deprecated v1). */
export type ApiVersion = "v1" | "v2" | "v3";

export const KIND_APPLICATIONS: Readonly<Record<DataKind, readonly Application[]>> = {
  logs: ["atr", "klewer", "eventops", "quasar"],
  workloads: ["atr"],
  jobs: ["atr"],
  tickets: ["atr"],
  metrics: ["atr", "klewer", "quasar"],
  billing: [],
};

/** app_type values per kind and version (v3 arrays take ec2 and kubernetes only). */
export function allowedAppTypes(kind: DataKind, api: ApiVersion): readonly AppType[] {
  if (kind === "billing") return [];
  if (kind === "logs") return api === "v1" ? ["ec2", "caas"] : ["ec2", "kubernetes", "serverless"];
  return ["ec2", "kubernetes"];
}

/** Strategies each kind offers; `auto` lets the planner choose among them. */
export const KIND_STRATEGIES: Readonly<Record<DataKind, readonly Strategy[]>> = {
  logs: ["auto", "scroll", "batch", "aggs"],
  workloads: ["auto", "scroll", "batch", "aggs"],
  jobs: ["auto", "pit", "aggs"],
  tickets: ["auto", "pit", "aggs"],
  metrics: ["auto", "scroll", "aggs"],
  billing: ["auto"],
};

export function apiVersionOf(kind: DataKind, logsApi: "v1" | "v2" | undefined): ApiVersion {
  if (kind === "logs") return logsApi ?? "v2";
  if (kind === "workloads") return "v2";
  if (kind === "billing") return "v1";
  return "v3";
}

/** The largest page v3 query operations accept. */
export const V3_MAX_PAGE_SIZE = 10_000;

export function kindFields(kind: DataKind): readonly FieldSpec[] {
  return kind === "billing" ? BILLING_FIELDS : KIND_FIELDS[kind];
}

/** Names usable in fields, filters and aggs: every field plus its multi-field companions. */
export function queryableFieldNames(kind: DataKind): string[] {
  return kindFields(kind).flatMap((field) => [
    field.name,
    ...(field.companions ?? []).map((companion) => `${field.name}.${companion.suffix}`),
  ]);
}
