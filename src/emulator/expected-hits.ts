// What a query returns, computed without HTTP by the same plan and paging code the endpoints use, so
// tests compare exported records with exactly what the service would page out.
import type { OperationPath } from "../api/wire/operations.js";
import type { DataKind } from "../api/wire/fields.js";
import { resolveOptions } from "./options.js";
import type { EmulatorOptions } from "./options.js";
import { planQuery } from "./plan.js";
import type { Body } from "./plan.js";
import { countPlan, readPage } from "./scan.js";
import type { EmulatedHit } from "./scan.js";

const DEFAULT_OPERATION: Record<Exclude<DataKind, "billing">, OperationPath> = {
  logs: "/v2/logs/scroll",
  workloads: "/v2/workloads/scroll",
  jobs: "/v3/jobs/query",
  tickets: "/v3/tickets/query",
  metrics: "/v3/metrics/query",
};

function operationOf(target: OperationPath | Exclude<DataKind, "billing">): OperationPath {
  return target.startsWith("/")
    ? (target as OperationPath)
    : DEFAULT_OPERATION[target as Exclude<DataKind, "billing">];
}

/**
 * The hits of an initial request body, in the order the service pages them (page size from the body).
 * `target` is a kind (its query/scroll operation) or an operation path; options as given to startEmulator.
 * @example
 * for await (const hit of expectedHits("jobs", body, { seed: 7 })) ids.push(hit._id);
 */
export async function* expectedHits(
  target: OperationPath | Exclude<DataKind, "billing">,
  body: Body,
  options: EmulatorOptions = {},
): AsyncIterable<EmulatedHit> {
  const plan = planQuery(operationOf(target), body, resolveOptions(options));
  const { lastPosition } = countPlan(plan);
  let after = -1;
  const size = Math.max(1, Math.min(plan.size, 10_000));
  while (after < lastPosition) {
    const page = readPage(plan, after, size);
    if (page.hits.length === 0) return;
    yield* page.hits;
    after = page.lastPosition;
  }
}

/** Number of hits of an initial request body (what `data.total` reports). */
export function expectedCount(
  target: OperationPath | Exclude<DataKind, "billing">,
  body: Body,
  options: EmulatorOptions = {},
): number {
  return countPlan(planQuery(operationOf(target), body, resolveOptions(options))).total;
}
