// Loading pipelines: valid definitions of every shape, interpolation, overrides, and files that are
// refused before validation (not YAML, empty, huge, alias bombs).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadPipeline, parsePipeline } from "../src/config/load-pipeline.js";
import { defaultComponents } from "../src/components/environment.js";
import { createTransformChain, transformColumns } from "../src/components/registry.js";
import { sourceColumns } from "../src/config/source-columns.js";
import { sliceWindow } from "../src/config/window.js";
import { ConfigError } from "../src/errors.js";
import type { ConfigIssue } from "../src/errors.js";
import { runRows } from "../src/transforms/run-transform.test-support.js";

const now = new Date("2026-11-21T15:00:00Z");
const EMBEDDED = "name: demo\nservice: { embedded: true }\nsinks: [{ format: ndjson, to: ./out }]\n";

function parse(text: string, env: Record<string, string> = {}, overrides?: { start?: string; end?: string }) {
  return parsePipeline(text, "p.yaml", { components: defaultComponents(), env, now, overrides });
}

function refusal(
  text: string,
  env: Record<string, string> = {},
): { message: string; issues: readonly ConfigIssue[] } {
  try {
    parse(text, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected the pipeline to be refused");
}

describe("loading valid pipelines", () => {
  it("normalises jobs with defaults, a resolved window and transform steps", () => {
    const pipeline = parse(`${EMBEDDED}source:
  kind: jobs
  application: atr
  app_type: ec2
  domain: [d1, d2]
  window: { start: now-1d/d, end: now/d, slice: 6h }
transforms:
  - flatten: { separator: _ }
  - select: { fields: [_id, job_id, job_state] }
`);
    expect(pipeline.service).toEqual({
      mode: "embedded",
      seed: 1,
      density: undefined,
      timeouts: expect.any(Object),
      limits: {
        max_response_bytes: 32 * 1024 * 1024,
        max_partition_bytes: 8 * 1024 ** 3,
        max_line_bytes: 16 * 1024 * 1024,
        max_decompression_ratio: 100,
      },
    });
    expect(pipeline.source).toMatchObject({
      api: "v3",
      app_type: ["ec2"],
      page_size: 1000,
      strategy: "auto",
      includes_eu: true,
      filters: [],
    });
    expect(pipeline.source.window).toEqual({
      start: new Date("2026-11-20T00:00:00Z"),
      end: new Date("2026-11-21T00:00:00Z"),
      slice_ms: 21_600_000,
      settle_ms: 900_000,
      now: new Date("2026-11-21T15:00:00Z"),
      expression: { start: "now-1d/d", end: "now/d", slice: "6h" },
    });
    expect(sliceWindow(pipeline.source.window.start, pipeline.source.window.end, 21_600_000)).toHaveLength(4);
    expect(pipeline.transforms).toEqual([
      { type: "flatten", config: { separator: "_" } },
      { type: "select", config: { fields: ["_id", "job_id", "job_state"] } },
    ]);
    expect(pipeline.limits).toEqual({
      concurrency: 4,
      quota_reserve: 0,
      max_retries_per_slice: 3,
      encode_threads: "auto",
      progress_interval: "30s",
      quota: {
        priority: "normal",
        alone_when_unreachable: false,
        lease_ms: 60_000,
        recheck_after_ms: 600_000,
      },
    });
  });

  it("builds the transform chain and its output columns", async () => {
    const pipeline =
      parse(`${EMBEDDED}source: { kind: jobs, application: atr, app_type: [ec2], domain: ["*"], window: yesterday, fields: [job.id, job.state] }
transforms:
  - rename: { job.state: state }
  - add: { exported_at: { from: export_time } }
  - flatten: {}
`);
    const columns = sourceColumns(pipeline.source, defaultComponents().kinds);
    expect(columns?.map((column) => column.name)).toEqual(["_id", "_index", "job.id", "job.state"]);
    const output = transformColumns(defaultComponents().transforms, pipeline.transforms, columns ?? []);
    expect(output.problems).toEqual([]);
    expect(output.columns.map((column) => column.name)).toEqual([
      "_id",
      "_index",
      "job.id",
      "state",
      "exported_at",
    ]);
    const run = { pipelineName: "demo", runId: "r", startedAt: new Date("2026-11-21T03:00:00Z") };
    const chain = createTransformChain(defaultComponents().transforms, pipeline.transforms, { run });
    const rows = await runRows(chain, [{ _id: "1", _index: "i", job: { id: "7", state: "DONE" } }]);
    expect(rows).toEqual([
      { _id: "1", _index: "i", "job.id": "7", state: "DONE", exported_at: "2026-11-21T03:00:00.000Z" },
    ]);
  });

  it("accepts serverless logs, billing, aggregations and v1 logs (with a deprecation warning)", () => {
    const serverless = parse(
      `${EMBEDDED}source: { kind: logs, application: eventops, app_type: serverless, log_group: ["*"], tenant: [t], stage: [prod], window: last-hour, strategy: batch }`,
    );
    expect(serverless.source).toMatchObject({ api: "v2", app_type: ["serverless"], log_group: ["*"] });
    const billing = parse(
      `${EMBEDDED}source: { kind: billing, domain: [a, b], window: { start: now-30d/d } }`,
    );
    expect(billing.source.window.expression).toEqual({ start: "now-30d/d", end: "now", slice: "auto" });
    const aggs = parse(`${EMBEDDED}source:
  kind: metrics
  application: quasar
  app_type: [kubernetes]
  domain: ["*"]
  window: yesterday
  strategy: aggs
  aggs: { per_hour: { date_histogram: { field: "@timestamp", fixed_interval: 1h } } }
transforms:
  - rename: { per_hour_key: hour }
`);
    expect(aggs.source.strategy).toBe("aggs");
    const warnings: ConfigIssue[] = [];
    parsePipeline(
      `${EMBEDDED}source: { kind: logs, api: v1, application: atr, domain: [a], window: { start: now-1d/d } }`,
      "p.yaml",
      {
        components: defaultComponents(),
        env: {},
        now,
        onWarning: (issue) => warnings.push(issue),
      },
    );
    expect(warnings).toEqual([
      expect.objectContaining({ path: "source.api", line: 4, message: expect.stringMatching(/deprecated/) }),
    ]);
  });

  it("refuses v1 windows that a time_range cannot express", () => {
    const { issues } = refusal(
      `${EMBEDDED}source: { kind: billing, domain: [a], window: { start: "2026-11-01T00:00:00Z", end: now/d, slice: 1d } }`,
    );
    expect(issues.map((issue) => issue.path)).toEqual([
      "source.window.start",
      "source.window.end",
      "source.window.slice",
    ]);
  });

  it("replaces the window from the command line, and reports a bad override by its flag", () => {
    const text = `${EMBEDDED}source: { kind: tickets, application: atr, app_type: [ec2], domain: ["*"], window: yesterday }`;
    const pipeline = parse(text, {}, { start: "2026-11-01T00:00:00Z", end: "2026-11-02T00:00:00Z" });
    expect(pipeline.source.window.start).toEqual(new Date("2026-11-01T00:00:00Z"));
    expect(pipeline.source.window.end).toEqual(new Date("2026-11-02T00:00:00Z"));
    try {
      parse(text, {}, { start: "2026-11-03T00:00:00Z", end: "2026-11-02T00:00:00Z" });
      throw new Error("expected a refusal");
    } catch (error) {
      expect((error as ConfigError).issues).toEqual([
        expect.objectContaining({
          path: "source.window.end",
          message: expect.stringMatching(/end must be after start \(from --end\)/),
        }),
      ]);
    }
  });
});

describe("interpolation", () => {
  const remote = (secret: string, extra = "") => `name: p
service:
  base_url: "\${BASE:-https://mdq.example.com}"
  auth_url: https://auth.example.com
  client_id: "\${ID}"
  client_secret: ${secret}
source:
  kind: jobs
  application: atr
  app_type: [ec2]
  domain: ["\${DOMAIN}"]
  window: yesterday
  page_size: \${SIZE:-500}${extra}
sinks: [{ format: ndjson, to: "./out/$\${literal}" }]
`;

  it("substitutes values, defaults, escapes, and reads an unquoted lone variable as a number", () => {
    const pipeline = parse(remote("${SECRET}"), { SECRET: "s", ID: "12345", DOMAIN: "prod" });
    expect(pipeline.service).toMatchObject({
      base_url: "https://mdq.example.com",
      client_id: "12345",
      client_secret: "s",
    });
    expect(pipeline.source.domain).toEqual(["prod"]);
    expect(pipeline.source.page_size).toBe(500);
    expect(pipeline.sinks[0]?.to).toBe("./out/${literal}");
  });

  it("never lets a value add structure", () => {
    const pipeline = parse(remote("${SECRET}"), {
      SECRET: "s",
      ID: "x",
      DOMAIN: "a]\n  strategy: batch\n  extra: [1",
    });
    expect(pipeline.source.domain).toEqual(["a]\n  strategy: batch\n  extra: [1"]);
    expect(pipeline.source.strategy).toBe("auto");
  });

  it("names every missing variable with its position, and rejects malformed references", () => {
    const { issues } = refusal(remote("${SECRET}"), {});
    expect(issues.map((issue) => [issue.message.split(";")[0], issue.line, issue.column])).toEqual([
      ["environment variable ID is not set", 5, 15],
      ["environment variable SECRET is not set", 6, 18],
      ["environment variable DOMAIN is not set", 11, 13],
    ]);
    const bad = refusal(remote("${SECRET}").replace("${SIZE:-500}", "${1BAD}"), {
      SECRET: "s",
      ID: "x",
      DOMAIN: "d",
    });
    expect(bad.issues).toEqual([
      expect.objectContaining({
        path: "source.page_size",
        message: expect.stringMatching(/is not a variable reference/),
      }),
    ]);
  });
});

describe("refused files", () => {
  const dir = mkdtemp(join(tmpdir(), "mdq-config-"));
  afterAll(async () => rm(await dir, { recursive: true, force: true }));

  it("not YAML, with the position of the syntax error", () => {
    const { message, issues } = refusal("name: demo\nsource: { kind: jobs\n  window: [\n");
    expect(message).toMatch(/^p\.yaml:\d+:\d+: not valid YAML/);
    expect(issues[0]?.line).toBeGreaterThan(1);
  });

  it("empty, comments only, a list at the top, a duplicate key", () => {
    expect(refusal("").message).toBe("p.yaml: the pipeline file is empty");
    expect(refusal("  \n\n").message).toBe("p.yaml: the pipeline file is empty");
    expect(refusal("# nothing here\n").message).toMatch(/empty \(only comments\)/);
    expect(refusal("- name: demo\n").message).toMatch(
      /^p\.yaml:1:1: the top level must be a mapping .*found a list/,
    );
    expect(refusal("name: a\nname: b\n").message).toMatch(
      /^p\.yaml:2:1: not valid YAML: Map keys must be unique/,
    );
  });

  it("huge, from text and from a file, before parsing", async () => {
    const huge = `name: demo\n# ${"x".repeat(1024 * 1024)}\n`;
    expect(refusal(huge).message).toMatch(/the limit is 1048576 \(1 MiB\)/);
    const file = join(await dir, "huge.yaml");
    await writeFile(file, huge);
    await expect(loadPipeline(file, { components: defaultComponents(), env: {}, now })).rejects.toThrow(
      /the limit is 1048576/,
    );
  });

  it("an alias bomb", () => {
    const lines = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
    for (let level = 1; level < 9; level += 1) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      lines.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(", ")}]`);
    }
    // Expanded, these aliases would be 10^9 nodes: refusing them before expansion is what lets the
    // test finish at all (its timeout bounds it; speed is not asserted here).
    expect(refusal(`${lines.join("\n")}\nname: demo\n`).message).toMatch(
      /aliases expand beyond 100 nodes.*alias bomb/,
    );
  });

  it("a file that cannot be read, and reads a good one", async () => {
    await expect(
      loadPipeline(join(await dir, "missing.yaml"), { components: defaultComponents(), env: {}, now }),
    ).rejects.toThrow(/cannot read the pipeline file \(ENOENT\)/);
    const file = join(await dir, "ok.yaml");
    await writeFile(
      file,
      `${EMBEDDED}source: { kind: jobs, application: atr, app_type: [ec2], domain: ["*"], window: yesterday }\n`,
    );
    expect((await loadPipeline(file, { components: defaultComponents(), env: {}, now })).name).toBe("demo");
  });
});
