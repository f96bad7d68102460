// Hostile and bad input through the CLI: record values used in path templates never leave the output
// directory or S3 prefix; broken responses fail clearly (operation and slice named) without touching
// what was committed; pipeline files that are not YAML, empty, huge or alias bombs are refused (exit 2).
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import {
  SERVICE_FROM_ENV,
  dataFiles,
  listTree,
  readNdjsonRecords,
  runCli,
  waitFor,
  writePipeline,
} from "./support/cli-harness.js";
import type { TestS3Server } from "./support/s3-server.js";
import { s3ServerFixture, useEmulator } from "./support/use-emulator.js";

const START = "2026-11-20T00:00:00Z";
const END = "2026-11-20T02:00:00Z";

const it = useEmulator({ seed: 12, density: 5 }, { preset: false }).extend<{ s3: TestS3Server }>({
  s3: s3ServerFixture(),
});

const source = (end = END) => ({
  kind: "jobs",
  application: "atr",
  app_type: ["ec2"],
  domain: ["*"],
  strategy: "pit",
  window: { start: START, end, slice: "1h" },
});

const HOSTILE = [
  ["parent directories", "../../../escaped"],
  ["an absolute path", "/tmp/absolute-escape"],
  ["a NUL byte", "bad\u0000name/../x"],
  ["a very long value", `${"../".repeat(50)}${"x".repeat(2000)}`],
  ["dots only", ".."],
] as const;

describe("record values in path templates", () => {
  it.for(HOSTILE)("%s stays inside the output directory", async ([, value], { service, workspace }) => {
    const dir = await workspace.folder("hostile-path");
    const out = join(dir, "deep", "out");
    const file = await writePipeline(dir, {
      name: "hostile-path",
      service: SERVICE_FROM_ENV,
      source: source(),
      // The transform puts the hostile text into the field the path is partitioned by.
      transforms: [{ add: { tag: { value } } }],
      sinks: [{ format: "ndjson", to: out, path: "tag={tag}/part-{slice}-{seq}.{ext}" }],
    });
    const result = await runCli(["run", file], { env: service.env });
    expect(result.code, result.stderr).toBe(0);
    // Nothing was written anywhere but under out/ (the pipeline file is the only other file).
    const everything = await listTree(dir);
    expect(everything.filter((path) => !path.startsWith("deep/out/"))).toEqual(["pipeline.yaml"]);
    const files = dataFiles(await listTree(out));
    expect(files.length).toBe(2);
    for (const path of files) {
      expect(path.split("/")).toHaveLength(2);
      expect(path.split("/").every((part) => part !== ".." && part !== "." && part !== "")).toBe(true);
      expect(Buffer.byteLength(path)).toBeLessThanOrEqual(1024);
    }
    const rows = await readNdjsonRecords(out);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.tag === value)).toBe(true);
  });

  it("stays inside the S3 prefix", async ({ service, workspace, s3 }) => {
    s3.createBucket("hostile");
    const dir = await workspace.folder("hostile-s3");
    const file = await writePipeline(dir, {
      name: "hostile-s3",
      service: SERVICE_FROM_ENV,
      source: source(),
      transforms: [{ add: { tag: { value: "../../../outside" } } }],
      sinks: [
        { format: "ndjson", to: join(dir, "local") },
        {
          format: "ndjson",
          to: "s3://hostile/exports/jobs",
          path: "{tag}/part-{slice}-{seq}.{ext}",
          s3: { region: "us-east-1", endpoint: s3.endpoint, force_path_style: true },
        },
      ],
    });
    const result = await runCli(["run", file], {
      env: { ...service.env, AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test" },
    });
    expect(result.code, result.stderr).toBe(0);
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: "hostile" }));
    const keys = (listed.Contents ?? []).map((object) => object.Key ?? "");
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const key of keys) {
      expect(key.startsWith("exports/jobs/")).toBe(true);
      expect(key.split("/").includes("..")).toBe(false);
    }
  });
});

describe("malformed responses", () => {
  it("truncated JSON fails naming the operation and slice, and keeps what was committed", async ({
    service,
    workspace,
  }) => {
    const dir = await workspace.folder("truncated");
    const out = join(dir, "out");
    const file = await writePipeline(dir, {
      name: "truncated",
      service: SERVICE_FROM_ENV,
      source: { ...source(), page_size: 5 },
      sinks: [{ format: "ndjson", to: out }],
      limits: { max_retries_per_slice: 0, concurrency: 1 },
    });
    expect((await runCli(["run", file], { env: service.env })).code).toBe(0);
    const committed = new Map<string, Buffer>();
    for (const path of dataFiles(await listTree(out))) committed.set(path, await readFile(join(out, path)));

    // The window grows by two slices; once the first of them has its first page, every response body
    // arrives cut in half. Each response is slowed down so the run cannot finish both slices between
    // two looks at the request count (a race seen under a loaded machine).
    const queries = service.emulator.requestCount("/v3/jobs/query");
    service.emulator.setFaults({ latencyMs: 40 });
    const running = runCli(["run", file, "--end", "2026-11-20T04:00:00Z"], { env: service.env });
    await waitFor(() => service.emulator.requestCount("/v3/jobs/query") > queries, "the first new page");
    service.emulator.setFaults({ truncateRate: 1, latencyMs: 40 });
    const result = await running.finally(() => service.emulator.setFaults({}));
    expect(result.code).toBe(75);
    // Named in the stop message itself, not only in the retry lines before it.
    const stop = result.logs.find(
      (line) => line.msg === "Run stopped; run the same command again to resume.",
    );
    expect(String(stop?.reason)).toMatch(/slice 20261120T0[23]0000Z gave up after 1 attempt/);
    expect(String(stop?.reason)).toMatch(/\/v3\/jobs\/query answered a truncated body/);
    // The committed slices are untouched.
    expect(committed.size).toBe(2);
    for (const [path, bytes] of committed) expect((await readFile(join(out, path))).equals(bytes)).toBe(true);
    const verify = await runCli(["verify", file], { env: service.env });
    expect(verify.code, verify.stdout).toBe(0);
  });
});

describe("pipeline files that must be refused", () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ["not YAML", "name: [unclosed\nsource: {\n  kind: jobs\n", /pipeline\.yaml:2:1: not valid YAML/],
    ["empty", "", /empty/i],
    ["only a comment", "# nothing here\n", /empty/i],
    ["a scalar, not a mapping", "just a string\n", /mapping/i],
    ["huge", `name: huge\n# ${"x".repeat(2 * 1024 * 1024)}\n`, /limit is \d+ \(1 MiB\)/],
    [
      "an alias bomb",
      [
        "a: &a [x, x, x, x, x, x, x, x, x, x]",
        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
        "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]",
        "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]",
        "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]",
        "",
      ].join("\n"),
      /alias/i,
    ],
    ["binary", Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02, 0x9f, 0x00]), /.+/],
  ];

  it.for(cases)(
    "%s: exit 2 with a clear message, nothing requested",
    async ([, content, message], { service, workspace }) => {
      const dir = await workspace.folder("bad-pipeline");
      const file = join(dir, "pipeline.yaml");
      await writeFile(file, content);
      const before = service.emulator.requestCount();
      const result = await runCli(["run", file], { env: service.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain("pipeline.yaml");
      expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(service.emulator.requestCount()).toBe(before);
    },
  );
});
