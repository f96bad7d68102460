// The data kind component: everything the exporter knows about one kind of data the service offers
// (API version, applications and app types, strategies and their limits, mappings, request bodies,
// record and column shapes). components/registry.ts lists the kinds; config, plan, fields and the runner
// read them there.
import type { ServiceClient } from "../api/client.js";
import type { ApiVersion, AppType, Application, SourceSection, SourceSpec, Strategy } from "./source-spec.js";
import type { DataKind, FieldSpec } from "../api/wire/fields.js";
import type { MappingField } from "../core/columns-from-mappings.js";
import type { Column, PartitionedSource, Source } from "../core/contracts.js";
import type { BatchSourceOptions } from "./batch-source.js";

/** How a slice is read: the planner picks one per slice among those the kind offers. */
export type Retrieval = "scroll" | "pit" | "batch" | "aggs" | "billing";

/** What a source factory gets besides the source: the client, and batch resume for batch exports. */
export interface SourceDeps {
  client: ServiceClient;
  batch?: BatchSourceOptions;
}

/** The retrievals a kind reads records with, besides aggregations. */
export type KindSources = Partial<Record<Exclude<Retrieval, "aggs">, SourceFactory>>;

export type SourceFactory = (source: SourceSpec, deps: SourceDeps) => Source | PartitionedSource;

/** One aggregation request: the definition, the time bounds, and the app type for v2 kinds. */
export interface AggregationRequest {
  aggs: Readonly<Record<string, unknown>>;
  bounds: { start_time: string; end_time: string };
  /** v2 kinds aggregate one app type per request; v3 kinds take all of them at once (undefined). */
  appType: AppType | undefined;
  signal?: AbortSignal | undefined;
}

export interface KindAggregation {
  /** The app type of each request: one per app type for v2 kinds, one undefined for v3 kinds. */
  sets(source: SourceSpec): (AppType | undefined)[];
  /** Sends one aggs request and returns the user's aggregations of its answer. */
  send(client: ServiceClient, source: SourceSpec, request: AggregationRequest): Promise<unknown>;
}

/** Records one problem of the `source` section at a path below it (reported with its line:column). */
export type ReportIssue = (path: (string | number)[], message: string) => void;

/** The scope keys a source names, and what a misplaced or missing one is told. */
export interface SourceScope {
  keys: readonly ("domain" | "log_group" | "tenant" | "stage")[];
  required: string;
  misplaced: string;
}

/**
 * A data kind.
 * @example
 * export const ticketsKind: DataKindComponent = { type: "tickets", summary: "ITSM tickets (v3).", ... };
 */
export interface DataKindComponent {
  /** The `source.kind` value. */
  type: DataKind;
  /** One line, shown in generated docs. */
  summary: string;
  /** The API version a source is served by; `requested` is `source.api` (logs only). */
  apiVersion(requested: "v1" | "v2" | undefined): ApiVersion;
  /** Applications offered; empty when the kind takes none. */
  applications: readonly Application[];
  /** app_type values per API version; empty when the kind takes none. */
  appTypes(api: ApiVersion): readonly AppType[];
  /** Strategies offered per API version; `auto` lets the planner choose among them. */
  strategies(api: ApiVersion): readonly Strategy[];
  /** The spec's recommended upper bound of records per paged slice; above it a batch export is better. */
  pagingLimit: number;
  /** Field names usable in fields, filters and aggs, from the spec's table. */
  fields: readonly FieldSpec[];
  /** The retrieval that pages (what `auto` under the limit and the paging strategies use). */
  paging: Retrieval;
  /** Source factories by retrieval for an API version (`aggs` is built from `aggregation`). */
  sources(api: ApiVersion): KindSources;
  /** Aggregations (the `aggs` strategy and the planner's probe); absent when the kind has none. */
  aggregation?: KindAggregation;
  /** The fields the service maps for the source's applications and app types (sorted by name). */
  mappings(client: ServiceClient, source: MappingsSource, signal?: AbortSignal): Promise<MappingField[]>;
  /** Columns of the rows the source yields, from the mapped fields (narrowed to `fields`). */
  columns(mapped: readonly Column[], source: Pick<SourceSpec, "fields">): Column[];
  /**
   * Column names under `column_names: snake_case` for the kind's own fields that snake_case would give
   * the name of another of them (logs: `timestamp` is `app_timestamp`, as `@timestamp` is `timestamp`),
   * so the default naming always runs; each applies only where the two meet in a sink's columns
   * (`rulesForColumns`), and a sink's `column_name_overrides` still wins.
   */
  snakeCaseNames?: Readonly<Record<string, string>>;
  /** The scope a source names when it is not its domains (serverless logs: log group, tenant, stage). */
  scope?(source: SourceSection, api: ApiVersion): SourceScope | undefined;
  /** False when `fields`, `filters` and `aggs` name no record fields (billing: one summary per domain). */
  selectsFields?: false;
  /** Rules of `source` only this kind has; config/ runs them offline after the shared ones. */
  checkSource?(source: SourceSection, api: ApiVersion, report: ReportIssue): void;
}

/** What the mappings call reads of a source (`fields --kind` builds one without a pipeline). */
export interface MappingsSource {
  kind: DataKind;
  /** Wider than a pipeline's applications: the mappings also know agentmanager. */
  application?: string | undefined;
  app_type: readonly string[];
  includes_eu: boolean;
}

/**
 * The kind's own snake_case names for the columns of a source: none for aggregations, whose columns
 * are the user's bucket names, not the kind's fields.
 */
export function kindColumnNames(
  kind: Pick<DataKindComponent, "snakeCaseNames">,
  source: Pick<SourceSpec, "strategy">,
): Readonly<Record<string, string>> | undefined {
  return source.strategy === "aggs" ? undefined : kind.snakeCaseNames;
}
