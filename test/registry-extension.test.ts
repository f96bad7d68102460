// Adding a format and a destination is an entry in the component environment and nothing else: this
// test builds a throwaway TSV format and an in-memory `mem://` destination (with conditional writes, so
// it holds the output lock), adds them with `withComponents`, and validates, runs, verifies and
// describes (ddl) a pipeline through them against the emulator over HTTP, in paged and batch slices.
// No module is mocked: any code that knew the formats or destinations by name (schema, sink, store
// choice, lock, merge, verify, ddl) would refuse them, or read a TSV file as NDJSON.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultComponents, withComponents } from "../src/components/environment.js";
import type { Format } from "../src/formats/format.js";
import type { Destination } from "../src/sinks/destination.js";
import type { ConditionalObjects, OutputStore } from "../src/core/contracts.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import type { Manifest } from "../src/pipeline/output-state/manifest.js";
import { lockObjectPath } from "../src/pipeline/output-state/output-lock.js";
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
import { rowsOf } from "../src/core/record-batch.test-support.js";

/** What the `mem://` destination holds, by `to` and path, and what it was asked to do. */
const memory = {
  objects: new Map<string, Uint8Array>(),
  versions: new Map<string, number>(),
  labels: [] as string[],
  /** Every lock object created through the conditional writes. */
  locks: [] as string[],
};
let writes = 0;
const text = new TextEncoder();

const tsvFormat: Format<{ header: boolean }> = {
  type: "tsv",
  summary: "Tab-separated values, one JSON value per cell.",
  options: { tsv_header: z.boolean().default(true).describe("Write the column names first.") },
  streams: true,
  // Only the columns are written: a field without one is dropped, as in Parquet.
  columnar: true,
  // It reads the columns by name: neither key order nor JSON text shows.
  takes: { shape: "rows" },
  settings: (sink) => ({ header: sink.tsv_header !== false }),
  extension: () => "tsv",
  contentType: () => "text/tab-separated-values",
  table: () => ({
    records: "columns",
    gzip: false,
    dialects: {
      duckdb: "read_csv",
      athena: "ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\t'",
      bigquery: "CSV",
    },
  }),
  createEncoder(columns, settings) {
    let first = settings.header;
    return {
      async encode(batch) {
        let out = first ? `${columns.map((column) => column.name).join("\t")}\n` : "";
        first = false;
        for (const row of rowsOf(batch))
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
    if (rows.length > 0) yield { kind: "rows", rows };
  },
  async countRows(chunks, settings) {
    let lines = 0;
    for await (const chunk of chunks) for (const byte of chunk) if (byte === 0x0a) lines++;
    return settings.header ? lines - 1 : lines;
  },
};

function put(key: string, bytes: Uint8Array): string {
  memory.objects.set(key, bytes);
  memory.versions.set(key, ++writes);
  return String(writes);
}

/** Compare-and-swap on one object, each write a new version: what the output lock needs. */
function memoryConditional(key: (path: string) => string): ConditionalObjects {
  const current = (path: string): string | undefined =>
    memory.objects.has(key(path)) ? String(memory.versions.get(key(path))) : undefined;
  return {
    async create(path, body) {
      if (memory.objects.has(key(path))) return undefined;
      memory.locks.push(key(path));
      return put(key(path), text.encode(body));
    },
    async read(path) {
      const bytes = memory.objects.get(key(path));
      const version = current(path);
      if (bytes === undefined || version === undefined) return undefined;
      return { body: Buffer.from(bytes).toString("utf8"), version };
    },
    replace: async (path, body, version) =>
      current(path) === version ? put(key(path), text.encode(body)) : undefined,
    async remove(path, version) {
      if (current(path) === version) memory.objects.delete(key(path));
    },
  };
}

function memoryStore(to: string): OutputStore {
  const key = (path: string): string => `${to}/${path}`;
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
        commit: async () => void put(key(path), bytes),
        abort: async () => undefined,
      };
    },
    putObject: async (path, body) => void put(key(path), typeof body === "string" ? text.encode(body) : body),
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
    conditional: memoryConditional(key),
    close: async () => undefined,
  };
}

/** Where DuckDB would read a copy of the objects; the cloud warehouses do not read this storage. */
const MIRROR = "/srv/mem-mirror";

const memDestination: Destination<{ label: string }> = {
  type: "mem",
  summary: "Objects held in this process.",
  target: { scheme: "mem" },
  example: "mem://name",
  options: z.strictObject({ label: z.string().default("none") }),
  outputNeutral: ["label"],
  lock: "conditional",
  ddlLocation: (to, dialect) => (dialect === "duckdb" ? `${MIRROR}/${to.slice("mem://".length)}` : undefined),
  async open(to, options, deps) {
    memory.labels.push(options?.label ?? "(no options)");
    // What a storage library says (an SDK's warnings) goes to the logger a run hands its destinations.
    deps.log?.warn({ label: options?.label }, "The mem library warned.");
    return memoryStore(to);
  },
};

const components = withComponents(defaultComponents(), {
  formats: { tsv: tsvFormat },
  destinations: { mem: memDestination },
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

describe("a format and a destination added through the environment alone", () => {
  it("validate names them in its errors: the new scheme is allowed and the new option belongs to its format", async () => {
    const file = await workspace.write(
      "bad.yaml",
      pipeline(`${workspace.dir}/unused`, "").replace(
        "format: ndjson",
        "format: ndjson\n    tsv_header: false",
      ),
    );
    const result = await runCli(["validate", file], { env: emulatorEnv(emulator), components });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("tsv_header applies to format tsv only");
    const wrong = await workspace.write(
      "wrong.yaml",
      pipeline(`${workspace.dir}/unused`, "").replace("mem://", "MEM://"),
    );
    const refused = await runCli(["validate", wrong], { env: emulatorEnv(emulator), components });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("did you mean mem://exports/jobs?");
    // The components belong to the environment they were added to, not to the process.
    const builtIn = await runCli(["validate", file], { env: emulatorEnv(emulator) });
    expect(builtIn.code).toBe(2);
    expect(builtIn.stderr).toContain('sinks[0].format: "tsv" is not one of ndjson, parquet');
  });

  it("runs a pipeline into them, writes what the built-in format writes, and verify reads it back", async () => {
    const out = `${workspace.dir}/ndjson`;
    const file = await workspace.write("run.yaml", pipeline(out, "\n    mem: { label: first }"));
    const env = emulatorEnv(emulator);
    const options = { env, components };
    const run = await runCli(["run", file], options);
    expect(run.stderr).not.toMatch(/"level":(50|60)/);
    expect(run.code).toBe(0);
    expect(memory.labels).toContain("first");
    // The destination's library logs as a line of the run, carrying its identity.
    const warned = run.stderr
      .split("\n")
      .filter((line) => line.includes("The mem library warned."))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(warned).toEqual([
      expect.objectContaining({ pipeline: "registry-extension", run_id: expect.any(String), label: "first" }),
    ]);
    // The run held the output's lock through the destination's conditional writes, and let it go.
    expect(memory.locks).toContain(`mem://exports/jobs/${lockObjectPath()}`);
    expect(memory.objects.has(`mem://exports/jobs/${lockObjectPath()}`)).toBe(false);
    expect(run.stderr).not.toContain("cannot hold the output lock");

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

    expect((await runCli(["verify", file], options)).code).toBe(0);
    const first = tsvFiles[0] ?? "";
    const damaged = memory.objects.get(first) ?? new Uint8Array(0);
    memory.objects.set(first, damaged.subarray(0, damaged.lastIndexOf(0x0a, damaged.length - 2) + 1));
    const verify = await runCli(["verify", file], options);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(/truncated/);
    memory.objects.set(first, damaged);

    // A label is output-neutral: the rerun with another one resumes the committed slices.
    const again = await workspace.write("again.yaml", pipeline(out, "\n    mem: { label: second }"));
    const rerun = await runCli(["run", again], options);
    expect(rerun.code).toBe(0);
    expect(memory.labels).toContain("second");
  });

  it("merges a batch slice's partition files through the format's own decoder, and ddl reads the output where the destination says", async () => {
    const out = `${workspace.dir}/batch-ndjson`;
    const file = await workspace.write("batch.yaml", batchPipeline(out));
    const env = emulatorEnv(emulator);
    const options = { env, components };
    const run = await runCli(["run", file], options);
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
    expect((await runCli(["verify", file], options)).code).toBe(0);

    // The columns come from the pin the run wrote beside the mem output; the format names its reader.
    const ddl = await runCli(["ddl", file, "--dialect", "duckdb", "--sink", "1"], options);
    expect(ddl.stderr).toBe("");
    expect(ddl.code).toBe(0);
    expect(ddl.stdout).toContain(`FROM read_csv('${MIRROR}/exports/logs/*-*.tsv'`);
    expect(ddl.stdout).toContain('AS "@timestamp"');
    const athena = await runCli(["ddl", file, "--dialect", "athena", "--sink", "1"], options);
    expect(athena.code).toBe(2);
    expect(athena.stdout).toBe("");
    expect(athena.stderr).toContain(
      `athena does not read the mem destination's files ("mem://exports/logs"); copy them where it reads and pass --location`,
    );
    // Copied elsewhere: a location another destination takes is read where that destination says.
    const copied = await runCli(
      ["ddl", file, "--dialect", "duckdb", "--sink", "1", "--location", "s3://lake/logs"],
      options,
    );
    expect(copied.stderr).toBe("");
    expect(copied.code).toBe(0);
    expect(copied.stdout).toContain("FROM read_csv('s3://lake/logs/*-*.tsv'");
  });

  it("runs a destination that cannot lock with a warning naming it, and refuses one that breaks its declaration", async () => {
    const withoutConditional = (to: string): OutputStore => {
      const { conditional: _none, ...store } = memoryStore(to);
      return store;
    };
    const unlockable = withComponents(components, {
      destinations: { mem: { ...memDestination, lock: "none", open: async (to) => withoutConditional(to) } },
    });
    const file = await workspace.write(
      "unlocked.yaml",
      pipeline(`${workspace.dir}/unlocked-ndjson`, "").replace(
        "mem://exports/jobs",
        "mem://exports/unlocked",
      ),
    );
    const env = emulatorEnv(emulator);
    const run = await runCli(["run", file], { env, components: unlockable });
    expect(run.code).toBe(0);
    const warnings = run.logs.filter((line) => String(line.msg).includes("cannot hold the output lock"));
    expect(warnings.map((line) => [line.level, line.destination, line.to])).toEqual([
      ["warn", "mem", "mem://exports/unlocked"],
    ]);
    expect(memory.locks.filter((path) => path.startsWith("mem://exports/unlocked/"))).toEqual([]);
    expect([...memory.objects.keys()].some((name) => name.startsWith("mem://exports/unlocked/"))).toBe(true);

    // Declaring a lock its stores cannot hold is refused before anything is written.
    const broken = withComponents(components, {
      destinations: { mem: { ...memDestination, open: async (to) => withoutConditional(to) } },
    });
    const brokenFile = await workspace.write(
      "broken.yaml",
      pipeline(`${workspace.dir}/broken-ndjson`, "").replace("mem://exports/jobs", "mem://exports/broken"),
    );
    const refused = await runCli(["run", brokenFile], { env, components: broken });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'the mem destination declares lock: "conditional" but its store for mem://exports/broken has no conditional writes',
    );
    expect([...memory.objects.keys()].some((name) => name.startsWith("mem://exports/broken/"))).toBe(false);
  });
});
