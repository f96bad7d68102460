// Adding a format and a destination is a registry entry and nothing else: this test registers a
// throwaway TSV format and an in-memory `mem://` destination by replacing the registry's tables only,
// then validates, runs and verifies a pipeline through them against the emulator over HTTP, in paged
// and batch slices. Any code that knew the formats or destinations by name (schema, sink, store choice,
// merge, verify, ddl) would refuse them, or read a TSV file as NDJSON.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as Registry from "../src/components/registry.js";
import type { Format } from "../src/formats/format.js";
import type { Destination } from "../src/sinks/destination.js";
import type { OutputStore } from "../src/core/contracts.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import type { Manifest } from "../src/pipeline/manifest.js";
import { listDataFiles, readNdjson } from "./support/read-output.js";
import {
  createWorkspace,
  emulatorEnv,
  EXPORT_EMULATOR,
  REMOTE_SERVICE_YAML,
  runCli,
  startTestService,
} from "./support/cli-harness.js";
import type { Workspace } from "./support/cli-harness.js";

/** The bytes the `mem://` destination holds, by `to` and path; shared with the mocked registry. */
const memory = vi.hoisted(() => ({ objects: new Map<string, Uint8Array>(), labels: [] as string[] }));

vi.mock("../src/components/registry.js", async (importOriginal) => {
  const original = await importOriginal<typeof Registry>();
  const { z } = await import("zod");
  const text = new TextEncoder();

  const tsvFormat: Format<{ header: boolean }> = {
    type: "tsv",
    summary: "Tab-separated values, one JSON value per cell.",
    options: { tsv_header: z.boolean().default(true).describe("Write the column names first.") },
    streams: true,
    // Only the columns are written: a field without one is dropped, as in Parquet.
    columnar: true,
    usesWorkers: false,
    settings: (sink) => ({ header: sink.tsv_header !== false }),
    extension: () => "tsv",
    contentType: () => "text/tab-separated-values",
    createEncoder(columns, settings) {
      let first = settings.header;
      return {
        async encode(batch) {
          let out = first ? `${columns.map((column) => column.name).join("\t")}\n` : "";
          first = false;
          for (const row of batch.rows)
            out += `${columns.map((column) => JSON.stringify(row[column.name] ?? null)).join("\t")}\n`;
          return [text.encode(out)];
        },
        finish: async () => [],
      };
    },
    async *decodeRows(chunks, columns, settings) {
      const parts: Uint8Array[] = [];
      for await (const chunk of chunks) parts.push(chunk);
      const lines = Buffer.concat(parts).toString("utf8").split("\n").slice(0, -1);
      const rows = (settings.header ? lines.slice(1) : lines).map((line) => {
        const cells = line.split("\t");
        return Object.fromEntries(
          columns.map((column, index) => [column.name, JSON.parse(cells[index] ?? "null") as unknown]),
        );
      });
      if (rows.length > 0) yield { rows };
    },
    async countRows(chunks, settings) {
      let lines = 0;
      for await (const chunk of chunks) for (const byte of chunk) if (byte === 0x0a) lines++;
      return settings.header ? lines - 1 : lines;
    },
  };

  const memoryStore = (to: string): OutputStore => {
    const key = (path: string): string => `${to}/${path}`;
    const put = (path: string, bytes: Uint8Array): void => void memory.objects.set(key(path), bytes);
    return {
      location: to,
      async stage(path) {
        const chunks: Uint8Array[] = [];
        let bytes = new Uint8Array(0);
        return {
          write: async (chunk) => void chunks.push(chunk),
          async finish() {
            bytes = Buffer.concat(chunks);
            return { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
          },
          commit: async () => put(path, bytes),
          abort: async () => undefined,
        };
      },
      putObject: async (path, body) => put(path, typeof body === "string" ? text.encode(body) : body),
      getObject: async (path) => memory.objects.get(key(path)),
      async list(prefix = "") {
        return [...memory.objects]
          .filter(([name]) => name.startsWith(key(prefix)))
          .map(([name, bytes]) => ({ path: name.slice(to.length + 1), bytes: bytes.length }));
      },
      deleteObject: async (path) => void memory.objects.delete(key(path)),
      async openRead(path) {
        const bytes = memory.objects.get(key(path)) ?? new Uint8Array(0);
        return (async function* () {
          // Two chunks, so a counter that reads only the first would be caught.
          yield bytes.subarray(0, bytes.length >> 1);
          yield bytes.subarray(bytes.length >> 1);
        })();
      },
      close: async () => undefined,
    };
  };

  const memDestination: Destination<{ label: string }> = {
    type: "mem",
    summary: "Objects held in this process.",
    target: { scheme: "mem" },
    example: "mem://name",
    options: z.strictObject({ label: z.string().default("none") }),
    outputNeutral: ["label"],
    async open(to, options) {
      memory.labels.push(options?.label ?? "(no options)");
      return memoryStore(to);
    },
  };

  return {
    ...original,
    FORMATS: { ...original.FORMATS, tsv: tsvFormat },
    DESTINATIONS: { ...original.DESTINATIONS, mem: memDestination },
  };
});

let emulator: RunningEmulator;
let workspace: Workspace;

beforeAll(async () => {
  emulator = (await startTestService(EXPORT_EMULATOR)).emulator;
  workspace = await createWorkspace("mdq-registry-");
});

afterAll(async () => {
  await emulator.close();
  await workspace.remove();
});

function pipeline(out: string, memOptions: string): string {
  return `name: registry-extension
${REMOTE_SERVICE_YAML}
source:
  kind: jobs
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "2026-03-10T00:00:00Z", end: "2026-03-10T03:00:00Z", slice: 1h }
  strategy: pit
  fields: [job.id, job.state, "@timestamp"]
transforms:
  - flatten: { separator: _ }
sinks:
  - format: tsv
    to: mem://exports/jobs${memOptions}
  - format: ndjson
    to: ${out}
`;
}

/** A day of logs by batch export: each slice's partitions (hours × app types) are merged into one file. */
function batchPipeline(out: string): string {
  return `name: registry-extension-batch
${REMOTE_SERVICE_YAML}
source:
  kind: logs
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "2026-03-10T00:00:00Z", end: "2026-03-11T00:00:00Z", slice: 1d }
  strategy: batch
transforms:
  - flatten: { separator: _ }
sinks:
  - format: tsv
    to: mem://exports/logs
  - format: ndjson
    to: ${out}
`;
}

function parseTsv(bytes: Uint8Array): Record<string, unknown>[] {
  const [header = "", ...lines] = Buffer.from(bytes).toString("utf8").trimEnd().split("\n");
  const names = header.split("\t");
  return lines.map((line) =>
    Object.fromEntries(line.split("\t").map((cell, index) => [names[index], JSON.parse(cell) as unknown])),
  );
}

describe("a format and a destination added through the registry alone", () => {
  it("validate names them in its errors: the new scheme is allowed and the new option belongs to its format", async () => {
    const file = await workspace.write(
      "bad.yaml",
      pipeline(`${workspace.dir}/unused`, "").replace(
        "format: ndjson",
        "format: ndjson\n    tsv_header: false",
      ),
    );
    const result = await runCli(["validate", file], { env: emulatorEnv(emulator) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("tsv_header applies to format tsv only");
    const wrong = await workspace.write(
      "wrong.yaml",
      pipeline(`${workspace.dir}/unused`, "").replace("mem://", "MEM://"),
    );
    const refused = await runCli(["validate", wrong], { env: emulatorEnv(emulator) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("did you mean mem://exports/jobs?");
  });

  it("runs a pipeline into them, writes what the built-in format writes, and verify reads it back", async () => {
    const out = `${workspace.dir}/ndjson`;
    const file = await workspace.write("run.yaml", pipeline(out, "\n    mem: { label: first }"));
    const env = emulatorEnv(emulator);
    const run = await runCli(["run", file], { env });
    expect(run.stderr).not.toMatch(/"level":(50|60)/);
    expect(run.code).toBe(0);
    expect(memory.labels).toContain("first");

    const tsvFiles = [...memory.objects.keys()].filter((name) => name.endsWith(".tsv")).sort();
    expect(tsvFiles).toHaveLength(3);
    const tsvRows = tsvFiles.flatMap((name) => parseTsv(memory.objects.get(name) ?? new Uint8Array(0)));
    const ndjsonRows = await readNdjson(out, await listDataFiles(out));
    expect(ndjsonRows.length).toBeGreaterThan(0);
    const byId = (rows: Record<string, unknown>[]) =>
      rows.map((row) => [row._id, row.job_id, row.job_state, row["@timestamp"]]).sort();
    expect(byId(tsvRows)).toEqual(byId(ndjsonRows));

    const manifest = JSON.parse(
      Buffer.from(memory.objects.get("mem://exports/jobs/_manifest.json") ?? new Uint8Array(0)).toString(
        "utf8",
      ),
    ) as Manifest;
    expect(manifest.complete).toBe(true);
    expect(manifest.totals.rows).toBe(ndjsonRows.length);
    expect(manifest.files.map((entry) => entry.path).sort()).toEqual(
      tsvFiles.map((name) => name.slice("mem://exports/jobs/".length)),
    );

    expect((await runCli(["verify", file], { env })).code).toBe(0);
    const first = tsvFiles[0] ?? "";
    const damaged = memory.objects.get(first) ?? new Uint8Array(0);
    memory.objects.set(first, damaged.subarray(0, damaged.lastIndexOf(0x0a, damaged.length - 2) + 1));
    const verify = await runCli(["verify", file], { env });
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(/truncated/);
    memory.objects.set(first, damaged);

    // A label is output-neutral: the rerun with another one resumes the committed slices.
    const again = await workspace.write("again.yaml", pipeline(out, "\n    mem: { label: second }"));
    const rerun = await runCli(["run", again], { env });
    expect(rerun.code).toBe(0);
    expect(memory.labels).toContain("second");
  });

  it("merges a batch slice's partition files through the format's own decoder, and ddl refuses a format no warehouse reads", async () => {
    const out = `${workspace.dir}/batch-ndjson`;
    const file = await workspace.write("batch.yaml", batchPipeline(out));
    const env = emulatorEnv(emulator);
    const run = await runCli(["run", file], { env });
    expect(run.stderr).not.toMatch(/"level":(50|60)/);
    expect(run.code).toBe(0);
    const merges = run.logs.filter((line) => String(line.msg).startsWith("Merged the partition files"));
    expect(merges.length).toBe(1);

    // One file for the day, not one per partition, holding the rows the built-in format holds.
    const tsvFiles = [...memory.objects.keys()].filter(
      (name) => name.startsWith("mem://exports/logs/") && name.endsWith(".tsv"),
    );
    expect(tsvFiles).toHaveLength(1);
    const tsvRows = parseTsv(memory.objects.get(tsvFiles[0] ?? "") ?? new Uint8Array(0));
    const ndjsonRows = await readNdjson(out, await listDataFiles(out));
    expect(ndjsonRows.length).toBeGreaterThan(100);
    const byId = (rows: Record<string, unknown>[]) => rows.map((row) => [row._id, row["@timestamp"]]).sort();
    expect(byId(tsvRows)).toEqual(byId(ndjsonRows));
    expect((await runCli(["verify", file], { env })).code).toBe(0);

    const ddl = await runCli(["ddl", file, "--dialect", "duckdb", "--sink", "1"], { env });
    expect(ddl.code).toBe(2);
    expect(ddl.stdout).toBe("");
    expect(ddl.stderr).toContain('no warehouse reads format "tsv"');
    const ndjsonDdl = await runCli(["ddl", file, "--dialect", "duckdb", "--sink", "2"], { env });
    expect(ndjsonDdl.code).toBe(0);
    expect(ndjsonDdl.stdout).toContain("read_json_objects(");
  });
});
