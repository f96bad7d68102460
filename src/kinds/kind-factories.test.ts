// The kinds declared through the shared factories (v2ScrollKind, v3Kind, pointInTimeKind) offer
// exactly what each offered when it was written out: versions, applications, app types, strategies,
// retrievals, limits, aggregation request sets and optional rules.
import { describe, expect, it } from "vitest";
import {
  ATR_ONLY,
  DOMAIN_APP_TYPES,
  LOG_APPLICATIONS,
  METRIC_APPLICATIONS,
  V2_LOG_APP_TYPES,
} from "../api/wire/common.js";
import { KIND_FIELDS } from "../api/wire/fields.js";
import type { DataKindComponent } from "./data-kind.js";
import { jobsKind } from "./jobs.js";
import { logsKind } from "./logs.js";
import { metricsKind } from "./metrics.js";
import type { SourceSpec } from "./source-spec.js";
import { ticketsKind } from "./tickets.js";
import { workloadsKind } from "./workloads.js";

/** What a kind offers for a source that names `api` (or none). */
function offer(kind: DataKindComponent, requested?: "v1" | "v2") {
  const api = kind.apiVersion(requested);
  const source = { app_type: ["ec2", "kubernetes"] } as unknown as SourceSpec;
  return {
    api,
    appTypes: kind.appTypes(api),
    strategies: kind.strategies(api),
    retrievals: Object.keys(kind.sources(api)),
    aggregationSets: kind.aggregation?.sets(source),
  };
}

describe("kinds declared through the factories", () => {
  it("logs: v2 by default, the deprecated v1 on request, with its own scope and rules", () => {
    expect(logsKind).toMatchObject({ type: "logs", pagingLimit: 100_000, paging: "scroll" });
    expect(logsKind.applications).toEqual(LOG_APPLICATIONS);
    expect(logsKind.fields).toBe(KIND_FIELDS.logs);
    expect(offer(logsKind)).toEqual({
      api: "v2",
      appTypes: V2_LOG_APP_TYPES,
      strategies: ["auto", "scroll", "batch", "aggs"],
      retrievals: ["scroll", "batch"],
      aggregationSets: ["ec2", "kubernetes"],
    });
    expect(offer(logsKind, "v1")).toMatchObject({
      api: "v1",
      appTypes: ["ec2", "caas"],
      strategies: ["auto", "scroll", "batch"],
      retrievals: ["scroll", "batch"],
    });
    expect(logsKind.scope).toBeTypeOf("function");
    expect(logsKind.checkSource).toBeTypeOf("function");
  });

  it("workloads: v2 whatever the source asks, and no rules of its own", () => {
    expect(workloadsKind).toMatchObject({ type: "workloads", pagingLimit: 100_000, paging: "scroll" });
    expect(workloadsKind.applications).toEqual(ATR_ONLY);
    expect(workloadsKind.fields).toBe(KIND_FIELDS.workloads);
    const v2 = {
      api: "v2",
      appTypes: DOMAIN_APP_TYPES,
      strategies: ["auto", "scroll", "batch", "aggs"],
      retrievals: ["scroll", "batch"],
      aggregationSets: ["ec2", "kubernetes"],
    };
    expect(offer(workloadsKind)).toEqual(v2);
    expect(offer(workloadsKind, "v1")).toEqual(v2);
    expect("scope" in workloadsKind || "checkSource" in workloadsKind).toBe(false);
  });

  it("jobs, tickets and metrics: v3, one paged query and one aggs request per slice", () => {
    for (const [kind, applications, paging] of [
      [jobsKind, ATR_ONLY, "pit"],
      [ticketsKind, ATR_ONLY, "pit"],
      [metricsKind, METRIC_APPLICATIONS, "scroll"],
    ] as const) {
      expect(kind).toMatchObject({ pagingLimit: 200_000, paging });
      expect(kind.applications).toEqual(applications);
      expect(kind.fields).toBe(KIND_FIELDS[kind.type as "jobs" | "tickets" | "metrics"]);
      expect(offer(kind)).toEqual({
        api: "v3",
        appTypes: DOMAIN_APP_TYPES,
        strategies: ["auto", paging, "aggs"],
        retrievals: [paging],
        aggregationSets: [undefined],
      });
      expect("scope" in kind || "checkSource" in kind).toBe(false);
    }
  });
});
