// Every operation of the service by path, with its request spec and response schema; and
// `validateRequest`, which the client runs before sending and the emulator runs to answer 400.
import { z } from "zod";
import type { WireProblem } from "./common.js";
import { validateBody } from "./request-spec.js";
import type { RequestSpec } from "./request-spec.js";
import * as v1 from "./v1.js";
import * as v2 from "./v2.js";
import * as v3 from "./v3.js";

interface OperationSpec {
  request: RequestSpec;
  response: z.ZodType;
}

export const OPERATIONS = {
  "/v1/logs/batch": { request: v1.v1LogsBatchRequest, response: v1.v1LogsBatchResponse },
  "/v1/logs/batch/urls": { request: v2.batchTokenRequest, response: v1.v1BatchUrlsResponse },
  "/v1/logs/batch/status": { request: v2.batchTokenRequest, response: v1.v1BatchUrlsResponse },
  "/v1/logs/scroll": { request: v1.v1LogsScrollRequest, response: v1.v1LogsScrollResponse },
  "/v1/query": { request: v1.v1QueryRequest, response: v1.v1QueryResponse },
  "/v2/logs/scroll": { request: v2.v2LogsRequests.scroll, response: v2.v2LogsScrollResponse },
  "/v2/logs/batch": { request: v2.v2LogsRequests.batch, response: v2.v2BatchResponse },
  "/v2/logs/batch/status": { request: v2.batchTokenRequest, response: v2.v2LogsBatchStatusResponse },
  "/v2/logs/aggs": { request: v2.v2LogsRequests.aggs, response: v2.v2AggsResponse },
  "/v2/workloads/scroll": { request: v2.v2WorkloadsRequests.scroll, response: v2.v2WorkloadsScrollResponse },
  "/v2/workloads/batch": { request: v2.v2WorkloadsRequests.batch, response: v2.v2BatchResponse },
  "/v2/workloads/batch/status": {
    request: v2.batchTokenRequest,
    response: v2.v2WorkloadsBatchStatusResponse,
  },
  "/v2/workloads/aggs": { request: v2.v2WorkloadsRequests.aggs, response: v2.v2AggsResponse },
  "/v3/logs/mappings": { request: v3.v3LogsMappingsRequest, response: v3.v3MappingsResponse },
  "/v3/workloads/mappings": { request: v3.v3PlainMappingsRequest, response: v3.v3MappingsResponse },
  "/v3/jobs/mappings": { request: v3.v3PlainMappingsRequest, response: v3.v3MappingsResponse },
  "/v3/tickets/mappings": { request: v3.v3PlainMappingsRequest, response: v3.v3MappingsResponse },
  "/v3/metrics/mappings": { request: v3.v3MetricsMappingsRequest, response: v3.v3MappingsResponse },
  "/v3/jobs/query": { request: v3.v3PitQueryRequest, response: v3.v3PitQueryResponse },
  "/v3/tickets/query": { request: v3.v3PitQueryRequest, response: v3.v3PitQueryResponse },
  "/v3/metrics/query": { request: v3.v3MetricsQueryRequest, response: v3.v3ScrollQueryResponse },
  "/v3/jobs/aggs": { request: v3.v3PitAggsRequest, response: v3.v3AggsResponse },
  "/v3/tickets/aggs": { request: v3.v3PitAggsRequest, response: v3.v3AggsResponse },
  "/v3/metrics/aggs": { request: v3.v3MetricsAggsRequest, response: v3.v3AggsResponse },
} as const satisfies Record<string, OperationSpec>;

export type OperationPath = keyof typeof OPERATIONS;

export function isOperationPath(path: string): path is OperationPath {
  return Object.hasOwn(OPERATIONS, path);
}

/**
 * Every problem of a request body for an operation (empty when valid).
 * @example
 * validateRequest("/v3/jobs/query", { size: 0 })
 * // [{ field: "size", value: 0, message: "must be an integer greater than 0" }, { field: "application", ... }]
 */
export function validateRequest(path: OperationPath, body: unknown): WireProblem[] {
  return validateBody(OPERATIONS[path].request, body);
}

/** The token endpoint's JSON answer; only `access_token` is guaranteed by the spec. */
export const tokenResponseSchema = z.looseObject({
  access_token: z.string(),
  token_type: z.string().optional(),
  expires_in: z.number().optional(),
});
