// The shape the v3 kinds share (jobs, tickets, metrics): one paged query per slice over every app
// type, aggregations in one request, application atr or the kind's own. A kind declares its
// applications, how it pages, its mappings and the two calls that name its own operations (their
// bodies are typed by the wire spec, so each call stays with the kind); the factory builds the rest.
import type { ServiceClient } from "../api/client.js";
import { V3_HITS } from "../api/hit-arrays.js";
import { pageThrough } from "../api/paging/pager.js";
import type { PagingStrategy } from "../api/paging/pager.js";
import type { OperationPath } from "../api/wire/operations.js";
import { DOMAIN_APP_TYPES } from "../api/wire/common.js";
import { KIND_FIELDS } from "../api/wire/fields.js";
import { createPagedSource } from "./paged-source.js";
import type { DataKindComponent, SourceFactory } from "./data-kind.js";
import { hitColumns } from "./hit-columns.js";
import type { Application } from "./source-spec.js";
import { v3AggsBody, v3QueryBody } from "./v3-requests.js";

interface V3KindSpec<A extends Application> {
  type: "jobs" | "tickets" | "metrics";
  summary: string;
  applications: readonly A[];
  /** How the query pages: a point in time (`search_after`) or a scroll. */
  paging: "pit" | "scroll";
  /** How one slice's query (`/v3/<kind>/query`) pages, from its initial body. */
  strategy(
    body: ReturnType<typeof v3QueryBody<A>>,
  ): PagingStrategy<Extract<OperationPath, `/v3/${string}/query`>>;
  /** Sends one aggs request (`/v3/<kind>/aggs`) and returns its `data.aggregations`. */
  aggs(
    client: ServiceClient,
    body: ReturnType<typeof v3AggsBody<A>>,
    signal: AbortSignal | undefined,
  ): Promise<unknown>;
  mappings: DataKindComponent["mappings"];
}

/**
 * A v3 kind from its declaration.
 * @example
 * export const metricsKind = v3Kind({ type: "metrics", summary: "…", applications, paging: "scroll", strategy: metricsScroll, aggs, mappings });
 */
export function v3Kind<const A extends Application>(spec: V3KindSpec<A>): DataKindComponent {
  const query = `/v3/${spec.type}/query`;
  const aggs = `/v3/${spec.type}/aggs`;
  const paged: SourceFactory = (source, { client }) =>
    createPagedSource(function* (ctx) {
      const body = v3QueryBody(query, spec.applications, source, ctx.slice);
      yield pageThrough(client, spec.strategy(body), V3_HITS, {
        signal: ctx.signal,
        reader: ctx.records?.reader,
      });
    });
  return {
    type: spec.type,
    summary: spec.summary,
    apiVersion: () => "v3",
    applications: spec.applications,
    appTypes: () => DOMAIN_APP_TYPES,
    strategies: () => ["auto", spec.paging, "aggs"],
    pagingLimit: 200_000,
    fields: KIND_FIELDS[spec.type],
    paging: spec.paging,
    sources: () => ({ [spec.paging]: paged }),
    aggregation: {
      sets: () => [undefined],
      send: async (client, source, request) =>
        spec.aggs(client, v3AggsBody(aggs, spec.applications, source, request), request.signal),
    },
    mappings: spec.mappings,
    columns: hitColumns,
  };
}
