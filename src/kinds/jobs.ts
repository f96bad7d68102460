// Jobs: batch job executions, served by v3 with point-in-time paging and aggregations.
import { pointInTimeKind } from "./point-in-time-kind.js";

export const jobsKind = pointInTimeKind("jobs", "Batch job executions (v3; point in time, aggs).");
