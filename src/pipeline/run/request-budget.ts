// What a run's plan may ask of the service: a plan beyond `limits.max_requests` is refused before the
// run takes anything further, and one the quota cannot carry above the reserve is warned of.
import { configErrorAt } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { PlannedRun } from "./prepare-run.js";

/** Refuses a plan beyond `limits.max_requests`, and warns when the quota will stop the run. */
export function checkRequestBudget(prepared: PlannedRun, log: Logger): void {
  const { pipeline } = prepared;
  const estimate = prepared.shardPlan.reduce((sum, slice) => sum + slice.requests, 0);
  const max = pipeline.limits.max_requests;
  if (max !== undefined && estimate > max) {
    const message = `the plan needs about ${estimate} requests, more than limits.max_requests (${max}); narrow the window or raise the limit`;
    throw configErrorAt("limits.max_requests", message);
  }
  const quotaLeft = prepared.plan.quotaRemaining;
  if (quotaLeft !== undefined && estimate > quotaLeft - pipeline.limits.quota_reserve) {
    log.warn(
      { estimate, quota_remaining: quotaLeft, quota_reserve: pipeline.limits.quota_reserve },
      "The plan needs more requests than the quota leaves above the reserve; the run will stop there and resume later.",
    );
  }
}
