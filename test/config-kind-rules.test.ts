// The `source` rules a data kind declares in its module (billing's and logs'): each problem is
// reported at its path with its YAML position, beside the shared rules, before any request.
import { describe, expect, it } from "vitest";
import { parsePipeline } from "../src/config/load-pipeline.js";
import { ConfigError } from "../src/errors.js";
import { pipelineText } from "./support/pipeline-text.js";
import { defaultComponents } from "../src/components/environment.js";

const now = new Date("2026-11-21T15:00:00Z");

/** Every problem of a pipeline whose `source` section (from line 8) is `source`, as "line:column path: message". */
function refusals(source: string): string[] {
  const text = pipelineText(source);
  try {
    parsePipeline(text, "kinds.yaml", {
      components: defaultComponents(),
      env: { MDQ_CLIENT_SECRET: "s" },
      now,
    });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues.map(
      (issue) => `${issue.line}:${issue.column} ${issue.path}: ${issue.message}`,
    );
  }
  throw new Error("expected the pipeline to be refused");
}

describe("rules of a kind's own", () => {
  it("billing takes domains and a v1 time_range, nothing else", () => {
    const source = `  kind: billing
  application: atr
  app_type: ec2
  domain: ["*", a]
  filters: [{ term: { domain: a } }]
  fields: [domain, bogus]
  page_size: 5
  window: { start: now-1d, end: now/d, slice: 1h }`;
    expect(refusals(source)).toEqual([
      "9:16 source.application: billing takes no application: its query is scoped by domain only",
      "10:13 source.app_type: billing takes no app_type",
      '11:12 source.domain[0]: the wildcard "*" must be the only element of domain; remove it or the other names',
      "11:12 source.domain[0]: billing is queried once per domain, so it takes domain names, not the wildcard",
      "12:12 source.filters: billing takes no filters: it is one summary per domain",
      "13:11 source.fields: billing takes no fields: it is one summary per domain",
      "14:14 source.page_size: billing takes no page_size: it is one summary per domain",
      '15:20 source.window.start: billing (v1) takes a time_range such as now-7d/d; "now-1d" is not of the form now-<n><unit>/<unit>',
      '15:33 source.window.end: billing (v1) always ends now; remove end (found "now/d")',
      "15:47 source.window.slice: billing (v1) cannot be sliced: its time_range is one request",
    ]);
  });

  it("v1 logs take one value per scope key, and v1 eventops logs are scoped like serverless", () => {
    const source = `  kind: logs
  api: v1
  application: eventops
  domain: [a]
  log_group: [g, h]
  window: { start: now-7d/d }`;
    expect(refusals(source)).toEqual([
      "8:3 source.tenant: is required for serverless logs (with log_group, tenant, stage)",
      "8:3 source.stage: is required for serverless logs (with log_group, tenant, stage)",
      "11:11 source.domain: does not apply to serverless logs, which are scoped by log_group, tenant and stage",
      "12:14 source.log_group: v1 logs take a single log_group; use api v2 for several",
    ]);
  });

  it("serverless v2 logs stand alone, come from eventops and are scoped by log group", () => {
    const source = `  kind: logs
  application: atr
  app_type: [serverless, ec2]
  domain: [a, a]
  window: { start: now-1d/d, end: now/d, slice: 1h }`;
    expect(refusals(source)).toEqual([
      "8:3 source.log_group: is required for serverless logs (with log_group, tenant, stage)",
      "8:3 source.tenant: is required for serverless logs (with log_group, tenant, stage)",
      "8:3 source.stage: is required for serverless logs (with log_group, tenant, stage)",
      '9:16 source.application: serverless logs come from application eventops only, not "atr"',
      "10:13 source.app_type: serverless logs are scoped by log group, not domain, so serverless cannot be listed with other app_types",
      "11:11 source.domain: does not apply to serverless logs, which are scoped by log_group, tenant and stage",
      '11:15 source.domain[1]: "a" is listed twice',
    ]);
  });

  it("api and the serverless scope keys belong to logs", () => {
    const source = `  kind: jobs
  api: v2
  application: atr
  app_type: ec2
  log_group: [g]
  window: { start: now-1d/d, end: now/d, slice: 1h }`;
    expect(refusals(source)).toEqual([
      '8:3 source.domain: is required for jobs: a list of domains, or ["*"]',
      "9:8 source.api: api applies to logs only (jobs are served by v3)",
      "12:14 source.log_group: applies to serverless logs only; jobs are scoped by domain",
    ]);
  });
});
