// The shape logs and workloads share: v2 kinds read by scroll, batch export and aggs, one request set
// per app_type, mappings from v3. A kind declares its applications and app types, its mappings and
// the three calls that name its own operations (their bodies are typed by the wire spec, so each call
// stays in the kind's module); the factory builds the sources, the aggregation and the rest.
import type { ServiceClient } from "../api/client.js";
import { v2HitArray } from "../api/hit-arrays.js";
import { pageThrough } from "../api/paging/pager.js";
import type { PagingStrategy } from "../api/paging/pager.js";
import type { OperationPath } from "../api/wire/operations.js";
import type { Aggregations } from "../api/wire/aggs.js";
import type { BatchExport } from "../api/paging/batch-status.js";
import { KIND_FIELDS } from "../api/wire/fields.js";
import { createBatchSource } from "./batch-source.js";
import { createPagedSource } from "./paged-source.js";
import type { AppType, Application, Strategy } from "./source-spec.js";
import type { DataKindComponent, KindAggregation, KindSources } from "./data-kind.js";
import { hitColumns } from "./hit-columns.js";
import { v2Aggs, v2Base, v2QueryBody } from "./v2-requests.js";

/** The deprecated v1 API a v2 kind is also served by (logs): its app types, strategies and sources. */
interface V1Service {
  appTypes: readonly AppType[];
  strategies: readonly Strategy[];
  sources: KindSources;
}

interface V2KindSpec<A extends Application, T extends AppType> {
  type: "logs" | "workloads";
  summary: string;
  /** The applications and app_type values the v2 operations take. */
  allowed: { applications: readonly A[]; appTypes: readonly T[] };
  /** How one app type's scroll (`/v2/<kind>/scroll`) pages, from its initial body. */
  scroll(
    body: ReturnType<typeof v2QueryBody<A, T>> & { size: number },
  ): PagingStrategy<Extract<OperationPath, `/v2/${string}/scroll`>>;
  /** The batch export of one app type's body (`/v2/<kind>/batch`), as `v2BatchExport` makes it. */
  batch(body: ReturnType<typeof v2QueryBody<A, T>>): BatchExport;
  /** Sends one aggs request (`/v2/<kind>/aggs`) and returns its `data.aggregations`. */
  aggs(
    client: ServiceClient,
    body: ReturnType<typeof v2Base<A, T>> & { aggs: Aggregations },
    signal: AbortSignal | undefined,
  ): Promise<unknown>;
  mappings: DataKindComponent["mappings"];
  snakeCaseNames?: DataKindComponent["snakeCaseNames"];
  /** Set when the kind is also served by the deprecated v1 API, picked with `source.api: v1`. */
  v1?: V1Service;
  scope?: DataKindComponent["scope"];
  checkSource?: DataKindComponent["checkSource"];
}

const V2_STRATEGIES: readonly Strategy[] = ["auto", "scroll", "batch", "aggs"];

function v2Sources<A extends Application, T extends AppType>(spec: V2KindSpec<A, T>): KindSources {
  const { allowed } = spec;
  return {
    scroll: (source, { client }) =>
      createPagedSource(function* (ctx) {
        const operation = `/v2/${spec.type}/scroll`;
        for (const appType of source.app_type) {
          const query = v2QueryBody(operation, allowed, source, appType, ctx.slice);
          const body = { ...query, size: source.page_size };
          const options = { signal: ctx.signal, reader: ctx.records?.reader };
          yield pageThrough(client, spec.scroll(body), v2HitArray(spec.type), options);
        }
      }),
    batch: (source, { client, batch }) =>
      createBatchSource(
        {
          pageSize: source.page_size,
          queries: (slice) =>
            source.app_type.map((appType) => {
              const operation = `/v2/${spec.type}/batch`;
              return spec.batch(v2QueryBody(operation, allowed, source, appType, slice));
            }),
        },
        client,
        batch,
      ),
  };
}

/** One aggs request per app type; the pipeline's filters wrap the `aggs` (see v2-requests.ts). */
function v2Aggregation<A extends Application, T extends AppType>(spec: V2KindSpec<A, T>): KindAggregation {
  return {
    sets: (source) => source.app_type,
    send: async (client, source, request) => {
      const operation = `/v2/${spec.type}/aggs`;
      const { aggs, unwrap } = v2Aggs(operation, source, request);
      const body = { ...v2Base(operation, spec.allowed, source, request.appType, request.bounds), aggs };
      return unwrap(await spec.aggs(client, body, request.signal));
    },
  };
}

/**
 * A v2 kind from its declaration.
 * @example
 * export const workloadsKind = v2ScrollKind({ type: "workloads", summary: "…", allowed, scroll, batch, aggs, mappings });
 */
export function v2ScrollKind<const A extends Application, const T extends AppType>(
  spec: V2KindSpec<A, T>,
): DataKindComponent {
  const v2 = v2Sources(spec);
  // A kind without v1 is served by v2 whatever `source.api` says (config refuses `api` on it).
  const apiVersion: DataKindComponent["apiVersion"] =
    spec.v1 === undefined ? () => "v2" : (requested) => requested ?? "v2";
  const v1For = (api: string) => (api === "v1" ? spec.v1 : undefined);
  return {
    type: spec.type,
    summary: spec.summary,
    apiVersion,
    applications: spec.allowed.applications,
    appTypes: (api) => v1For(api)?.appTypes ?? spec.allowed.appTypes,
    strategies: (api) => v1For(api)?.strategies ?? V2_STRATEGIES,
    pagingLimit: 100_000,
    fields: KIND_FIELDS[spec.type],
    paging: "scroll",
    sources: (api) => v1For(api)?.sources ?? v2,
    aggregation: v2Aggregation(spec),
    mappings: spec.mappings,
    columns: hitColumns,
    ...(spec.scope !== undefined ? { scope: spec.scope } : {}),
    ...(spec.snakeCaseNames !== undefined ? { snakeCaseNames: spec.snakeCaseNames } : {}),
    ...(spec.checkSource !== undefined ? { checkSource: spec.checkSource } : {}),
  };
}
