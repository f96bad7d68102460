// The floor plan lint enforces (.dependency-cruiser.cjs): run on small scratch trees, the same
// command `npm run lint` runs passes a tree that follows the layers and fails one import against them.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, "..");
const depcruise = join(repo, "node_modules", ".bin", "depcruise");
const config = join(repo, ".dependency-cruiser.cjs");

const tsconfig = {
  compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true },
  include: ["src"],
};

let scratch: string | undefined;

afterEach(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** Writes `files` (path under src/ → source) to a scratch tree and lints its layering. */
async function lintTree(files: Record<string, string>): Promise<{ failed: boolean; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), "layering-"));
  scratch = dir;
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  for (const [path, source] of Object.entries(files)) {
    await mkdir(dirname(join(dir, "src", path)), { recursive: true });
    await writeFile(join(dir, "src", path), source);
  }
  try {
    const { stdout } = await run(depcruise, ["src", "--config", config], { cwd: dir });
    return { failed: false, output: stdout };
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    return { failed: true, output: stdout + stderr };
  }
}

const contracts = "export type Row = Record<string, unknown>;\n";

describe("the layering lint", { timeout: 30_000 }, () => {
  it("passes imports that run down the layers", async () => {
    const result = await lintTree({
      "core/contracts.ts": contracts,
      "formats/ndjson.ts": 'import type { Row } from "../core/contracts.js";\nexport type Line = Row;\n',
      "sinks/sink.ts": 'import type { Line } from "../formats/ndjson.js";\nexport type Out = Line;\n',
      "pipeline/run/run.ts": 'import type { Out } from "../../sinks/sink.js";\nexport type Run = Out;\n',
      "pipeline/output-state/state.ts":
        'import type { Plan } from "../plan/plan.js";\nexport type State = Plan;\n',
      "pipeline/plan/plan.ts":
        'import type { Row } from "../../core/contracts.js";\nexport type Plan = Row;\n',
      "emulator/server.ts": 'import type { Wire } from "../api/wire/ops.js";\nexport type S = Wire;\n',
      "api/wire/ops.ts": "export type Wire = string;\n",
    });
    expect(result.output).toContain("no dependency violations found");
    expect(result.failed).toBe(false);
  });

  it("fails a type-only import that points up the layers", async () => {
    const result = await lintTree({
      "core/contracts.ts": contracts,
      "pipeline/run/run-outcome.ts":
        'import type { Row } from "../../core/contracts.js";\nexport type Outcome = Row;\n',
      "formats/ndjson.ts":
        'import type { Outcome } from "../pipeline/run/run-outcome.js";\nexport type Line = Outcome;\n',
    });
    expect(result.failed).toBe(true);
    expect(result.output).toContain(
      "not-in-allowed: src/formats/ndjson.ts → src/pipeline/run/run-outcome.ts",
    );
  });

  it("fails an import between peers and one up the layers, with no exception for any file", async () => {
    const result = await lintTree({
      "sinks/sink.ts": "export const sink = 1;\n",
      "transforms/add.ts": 'import { sink } from "../sinks/sink.js";\nexport const add = sink;\n',
      "warehouse/column-names.ts": "export const NAMES = {};\n",
      "kinds/source-spec.ts": "export const spec = 1;\n",
      "sinks/sink-config.ts":
        'import { NAMES } from "../warehouse/column-names.js";\nexport const config = NAMES;\n',
      "kinds/paged-source.ts": 'import { spec } from "./source-spec.js";\nexport const paged = spec;\n',
    });
    expect(result.failed).toBe(true);
    expect(result.output).toContain("not-in-allowed: src/transforms/add.ts → src/sinks/sink.ts");
    expect(result.output).toContain(
      "not-in-allowed: src/sinks/sink-config.ts → src/warehouse/column-names.ts",
    );
    expect(result.output).not.toContain("src/kinds/paged-source.ts →");
  });

  it("keeps the rooms of pipeline/ in their order: the output state a run keeps never imports the run", async () => {
    const result = await lintTree({
      "pipeline/run/runner.ts": "export const runner = 1;\n",
      "pipeline/output-state/state.ts":
        'import { runner } from "../run/runner.js";\nexport const state = runner;\n',
      "pipeline/plan/plan.ts":
        'import { state } from "../output-state/state.js";\nexport const plan = state;\n',
    });
    expect(result.failed).toBe(true);
    expect(result.output).toContain(
      "not-in-allowed: src/pipeline/output-state/state.ts → src/pipeline/run/runner.ts",
    );
    expect(result.output).toContain(
      "not-in-allowed: src/pipeline/plan/plan.ts → src/pipeline/output-state/state.ts",
    );
  });

  it("keeps decoding below the client and the formats, and the pagers above the client", async () => {
    const passing = await lintTree({
      "core/contracts.ts": contracts,
      "decoding/hit-stream.ts":
        'import type { Row } from "../core/contracts.js";\nexport type Batch = Row[];\n',
      "api/client.ts":
        'import type { Batch } from "../decoding/hit-stream.js";\nexport type Client = Batch;\n',
      "api/paging/pager.ts": 'import type { Client } from "../client.js";\nexport type Pager = Client;\n',
      "formats/columns.ts":
        'import type { Batch } from "../decoding/hit-stream.js";\nexport type C = Batch;\n',
    });
    expect(passing.output).toContain("no dependency violations found");
    expect(passing.failed).toBe(false);
    const failing = await lintTree({
      "api/paging/pager.ts": "export type Pager = string;\n",
      "api/client.ts": 'import type { Pager } from "./paging/pager.js";\nexport type Client = Pager;\n',
      "decoding/hit-stream.ts":
        'import type { Client } from "../api/client.js";\nexport type Batch = Client;\n',
    });
    expect(failing.failed).toBe(true);
    expect(failing.output).toContain("pagers-above-the-client: src/api/client.ts → src/api/paging/pager.ts");
    expect(failing.output).toContain("not-in-allowed: src/decoding/hit-stream.ts → src/api/client.ts");
  });

  it("keeps decoding below the formats, and the run and the client off a format's internals", async () => {
    const passing = await lintTree({
      "core/contracts.ts": contracts,
      "decoding/taken-columns.ts":
        'import type { Row } from "../core/contracts.js";\nexport type Reader = Row;\n',
      "formats/format.ts":
        'import type { Reader } from "../decoding/taken-columns.js";\nexport type Format = Reader;\n',
      "pipeline/run/record-request.ts":
        'import type { Format } from "../../formats/format.js";\n' +
        'import type { Reader } from "../../decoding/taken-columns.js";\nexport type R = [Format, Reader];\n',
    });
    expect(passing.output).toContain("no dependency violations found");
    expect(passing.failed).toBe(false);
    const failing = await lintTree({
      "core/contracts.ts": contracts,
      "formats/parquet/coercers.ts":
        'import type { Row } from "../../core/contracts.js";\nexport type Coercers = Row;\n',
      "decoding/hit-column-values.ts":
        'import type { Coercers } from "../formats/parquet/coercers.js";\nexport type V = Coercers;\n',
      "pipeline/run/record-request.ts":
        'import type { Coercers } from "../../formats/parquet/coercers.js";\nexport type R = Coercers;\n',
      "api/service-call.ts":
        'import type { Coercers } from "../formats/parquet/coercers.js";\nexport type S = Coercers;\n',
    });
    expect(failing.failed).toBe(true);
    expect(failing.output).toContain(
      "decoding-imports-only-the-bottom: src/decoding/hit-column-values.ts → src/formats/parquet/coercers.ts",
    );
    expect(failing.output).toContain(
      "formats-through-their-contract: src/pipeline/run/record-request.ts → src/formats/parquet/coercers.ts",
    );
    expect(failing.output).toContain(
      "formats-through-their-contract: src/api/service-call.ts → src/formats/parquet/coercers.ts",
    );
  });

  it("fails an emulator import beyond the wire schemas", async () => {
    const result = await lintTree({
      "api/client.ts": "export type Client = string;\n",
      "emulator/server.ts": 'import type { Client } from "../api/client.js";\nexport type S = Client;\n',
    });
    expect(result.failed).toBe(true);
    expect(result.output).toContain("not-in-allowed: src/emulator/server.ts → src/api/client.ts");
  });

  it("fails an import it cannot resolve, which would otherwise pass the layering unseen", async () => {
    const result = await lintTree({
      "formats/ndjson.ts":
        'import type { Outcome } from "../pipeline/missing.js";\nexport type Line = Outcome;\n',
    });
    expect(result.failed).toBe(true);
    expect(result.output).toContain("not-to-unresolvable: src/formats/ndjson.ts → ../pipeline/missing.js");
  });

  it("fails a circle of type-only imports inside one folder", async () => {
    const result = await lintTree({
      "core/a.ts": 'import type { B } from "./b.js";\nexport type A = { b?: B };\n',
      "core/b.ts": 'import type { A } from "./a.js";\nexport type B = { a?: A };\n',
    });
    expect(result.failed).toBe(true);
    expect(result.output).toContain("no-circular");
  });
});
