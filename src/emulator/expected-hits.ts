// What a query returns, computed without HTTP by the same plan and paging code the endpoints use, so
// tests compare exported records with exactly what the service would page out.
import type { OperationPath } from "../api/wire/operations.js";
import type { GeneratedKind } from "./generated-kind.js";
import { KIND_DATA } from "./kind-data.js";
import type { ResolvedOptions } from "./options.js";
import { planQuery } from "./plan.js";
import type { Body } from "./plan.js";
import { countPlan, pages } from "./scan.js";
import type { EmulatedHit } from "./scan.js";

function operationOf(target: OperationPath | GeneratedKind): OperationPath {
  return target.startsWith("/") ? (target as OperationPath) : KIND_DATA[target as GeneratedKind].query;
}

/**
 * The hits of an initial request body, in the order the service pages them (page size from the body).
 * `target` is a kind (its query/scroll operation) or an operation path; options are the running
 * service's, so its field changes, late and lost records and indexing horizon count.
 */
export async function* expectedHits(
  target: OperationPath | GeneratedKind,
  body: Body,
  options: ResolvedOptions,
): AsyncIterable<EmulatedHit> {
  const plan = planQuery(operationOf(target), body, options);
  for (const hits of pages(plan, Math.max(1, Math.min(plan.size, 10_000)))) yield* hits;
}

/** Number of hits of an initial request body (what `data.total` reports). */
export function expectedCount(
  target: OperationPath | GeneratedKind,
  body: Body,
  options: ResolvedOptions,
): number {
  return countPlan(planQuery(operationOf(target), body, options)).total;
}
