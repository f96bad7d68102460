// Request rules of the wire schemas: each rule of the spec, as a problem naming field, value and what is allowed.
import { describe, expect, it } from "vitest";
import { validateRequest } from "./operations.js";
import type { OperationPath } from "./operations.js";

const window = { start_time: "2026-01-01T00:00:00Z", end_time: "2026-01-02T00:00:00.250Z" };
const jobs = { application: "atr", ...window, app_type: ["ec2"], domain: ["*"] };

function fields(path: OperationPath, body: unknown): string[] {
  return validateRequest(path, body).map((problem) => problem.field);
}

describe("validateRequest", () => {
  it("accepts a complete initial v3 query and a paging request with only pit_id and search_after", () => {
    expect(validateRequest("/v3/jobs/query", jobs)).toEqual([]);
    expect(validateRequest("/v3/tickets/query", { pit_id: "p", search_after: [1, "x"] })).toEqual([]);
  });

  it("names every missing field of an initial request and the lone pit_id", () => {
    expect(fields("/v3/jobs/query", { pit_id: "p" })).toEqual([
      "search_after",
      "application",
      "start_time",
      "end_time",
      "app_type",
      "domain",
    ]);
  });

  it("rejects unknown fields on v3 but ignores them on v2", () => {
    expect(validateRequest("/v3/jobs/query", { ...jobs, colour: "red" })).toEqual([
      { field: "colour", value: "red", message: "is not a known field of this operation" },
    ]);
    const logs = { application: "atr", ...window, app_type: "ec2", domain: ["d1"], size: 10, colour: 1 };
    expect(validateRequest("/v2/logs/scroll", logs)).toEqual([]);
  });

  it("ties the logs mappings' app_type to the application: serverless for eventops and agentmanager only", () => {
    for (const application of ["eventops", "agentmanager"]) {
      expect(validateRequest("/v3/logs/mappings", { application, app_type: "serverless" })).toEqual([]);
      expect(validateRequest("/v3/logs/mappings", { application, app_type: "ec2" })).toEqual([
        { field: "app_type", value: "ec2", message: `must be serverless for application ${application}` },
      ]);
    }
    expect(validateRequest("/v3/logs/mappings", { application: "atr", app_type: "kubernetes" })).toEqual([]);
    expect(validateRequest("/v3/logs/mappings", { application: "atr", app_type: "serverless" })).toEqual([
      { field: "app_type", value: "serverless", message: "must be ec2 or kubernetes for application atr" },
    ]);
  });

  it("ties a v2 logs request's application and scope to its app_type", () => {
    const logs = { ...window, size: 10 };
    const serverless = { ...logs, app_type: "serverless", log_group: ["g"], tenant: ["t"], stage: ["s"] };
    expect(validateRequest("/v2/logs/scroll", { ...serverless, application: "eventops" })).toEqual([]);
    expect(validateRequest("/v2/logs/scroll", { ...serverless, application: "atr" })).toEqual([
      { field: "application", value: "atr", message: "must be eventops when app_type is serverless" },
    ]);
    expect(fields("/v2/logs/scroll", { ...logs, application: "eventops", app_type: "serverless" })).toEqual([
      "log_group",
      "tenant",
      "stage",
    ]);
    expect(fields("/v2/logs/scroll", { ...serverless, application: "eventops", tenant: [] })).toEqual([
      "tenant",
    ]);
    const ec2 = { ...logs, app_type: "ec2", domain: ["d1"] };
    expect(validateRequest("/v2/logs/scroll", { ...ec2, application: "atr" })).toEqual([]);
    expect(validateRequest("/v2/logs/scroll", { ...ec2, application: "eventops" })).toEqual([
      {
        field: "application",
        value: "eventops",
        message: "must not be eventops unless app_type is serverless",
      },
    ]);
    expect(fields("/v2/logs/scroll", { ...logs, application: "atr", app_type: "kubernetes" })).toEqual([
      "domain",
    ]);
    expect(fields("/v2/logs/scroll", { ...ec2, application: "atr", domain: ["*", "d1"] })).toEqual([
      "domain",
    ]);
  });

  it("bounds v3 size to 1..10000", () => {
    expect(fields("/v3/jobs/query", { ...jobs, size: 0 })).toEqual(["size"]);
    expect(fields("/v3/jobs/query", { ...jobs, size: 10_001 })).toEqual(["size"]);
    expect(fields("/v3/jobs/query", { ...jobs, size: 10_000 })).toEqual([]);
  });

  it("applies the wildcard rule, emptiness and time order", () => {
    expect(fields("/v3/jobs/query", { ...jobs, domain: ["*", "d1"] })).toEqual(["domain"]);
    expect(fields("/v2/workloads/scroll", { ...jobs, app_type: "ec2", domain: [] })).toEqual(["domain"]);
    expect(
      fields("/v3/metrics/aggs", {
        ...jobs,
        end_time: jobs.start_time,
        aggs: { a: { avg: { field: "x" } } },
      }),
    ).toEqual(["end_time"]);
  });

  it("keeps serverless scope for eventops and domain scope for the others", () => {
    const base = { ...window, size: 5 };
    expect(
      fields("/v2/logs/scroll", { ...base, application: "eventops", app_type: "ec2", domain: ["d"] }),
    ).toEqual(["application"]);
    expect(
      fields("/v2/logs/scroll", { ...base, application: "eventops", app_type: "serverless", tenant: ["t"] }),
    ).toEqual(["log_group", "stage"]);
    expect(
      fields("/v2/logs/batch", {
        ...base,
        application: "atr",
        app_type: "serverless",
        log_group: ["*"],
        tenant: ["*"],
        stage: ["*"],
      }),
    ).toEqual(["size", "application"]);
  });

  it("allows only the operation's applications and app types", () => {
    expect(
      validateRequest("/v2/workloads/batch", { ...jobs, application: "klewer", app_type: "serverless" }),
    ).toEqual([
      { field: "application", value: "klewer", message: "is not one of atr" },
      { field: "app_type", value: "serverless", message: "is not one of ec2, kubernetes" },
    ]);
    expect(fields("/v3/logs/mappings", { application: "agentmanager", app_type: "kubernetes" })).toEqual([
      "app_type",
    ]);
    expect(fields("/v3/metrics/query", { ...jobs, application: "eventops" })).toEqual(["application"]);
  });

  it("accepts an empty body for the workloads, jobs and tickets mappings", () => {
    expect(validateRequest("/v3/jobs/mappings", undefined)).toEqual([]);
    expect(validateRequest("/v3/workloads/mappings", {})).toEqual([]);
    expect(fields("/v3/tickets/mappings", { application: "atr" })).toEqual(["application"]);
  });

  it("checks the query DSL and aggregations structurally", () => {
    const filters = [
      { bool: { must: [{ term: { "job.state": "DONE" } }], must_not: { exists: { field: "x" } } } },
    ];
    expect(validateRequest("/v3/jobs/query", { ...jobs, filters })).toEqual([]);
    expect(fields("/v3/jobs/query", { ...jobs, filters: [{ wildcard: { a: "b*" } }] })).toEqual([
      "filters.0",
    ]);
    expect(fields("/v3/jobs/aggs", { ...jobs, aggs: {} })).toEqual(["aggs"]);
    const aggs = {
      by_state: {
        terms: { field: "job.state" },
        aggs: { t: { date_histogram: { field: "@timestamp", fixed_interval: "1h" } } },
      },
    };
    expect(validateRequest("/v3/jobs/aggs", { ...jobs, aggs })).toEqual([]);
  });

  it("requires a non-blank batch token and the v1 rules", () => {
    expect(fields("/v2/workloads/batch/status", { token: "   " })).toEqual(["token"]);
    expect(fields("/v1/query", { time_range: "now-1d/d" })).toEqual(["domain"]);
    expect(fields("/v1/logs/scroll", { application: "atr", time_range: "yesterday" })).toEqual([
      "time_range",
    ]);
  });
});
