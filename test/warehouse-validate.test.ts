// `validate` reads a sink's committed pinned schema too: a pin that is missing or broken fails the
// pipeline at the `pinned:` line, before any run, with the command that writes it.
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, createWorkspace, runCli } from "./support/cli-harness.js";
import type { Workspace } from "./support/cli-harness.js";

const EXAMPLE = join(REPO_ROOT, "pipelines", "nightly-warehouse-load.yaml");
const PIN = "nightly-warehouse-load.schema.json";
const env = {
  MDQ_BASE_URL: "http://x",
  MDQ_AUTH_URL: "http://x",
  MDQ_CLIENT_ID: "id",
  MDQ_CLIENT_SECRET: "s",
};

let workspace: Workspace;
let pipeline: string;
let pinnedLine: number;
beforeAll(async () => {
  workspace = await createWorkspace("validate-pin");
  const text = await readFile(EXAMPLE, "utf8");
  pipeline = await workspace.write("nightly.yaml", text);
  pinnedLine = text.split("\n").findIndex((line) => line.includes(`pinned: ${PIN}`)) + 1;
  expect(pinnedLine).toBeGreaterThan(0);
});
afterAll(async () => {
  await workspace.remove();
});

describe("validate and a committed pinned schema", () => {
  it("reads the pin beside the pipeline and says how many columns it holds", async () => {
    await copyFile(join(REPO_ROOT, "pipelines", PIN), join(workspace.dir, PIN));
    const columns = (JSON.parse(await readFile(join(workspace.dir, PIN), "utf8")) as { columns: unknown[] })
      .columns;
    const result = await runCli(["validate", pipeline], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`sink 1 pinned by ${PIN}: ${columns.length} columns`);
  });

  it("fails at the pinned: line when the pin is not JSON, or not there", async () => {
    await writeFile(join(workspace.dir, PIN), '{"columns": [');
    const broken = await runCli(["validate", pipeline], { env });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(
      new RegExp(`nightly\\.yaml:${pinnedLine}:\\d+: sinks\\.0\\.schema\\.pinned: .*not JSON`),
    );

    await writeFile(join(workspace.dir, PIN), JSON.stringify({ columns: [{ name: "a", type: "decimal" }] }));
    const wrong = await runCli(["validate", pipeline], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`nightly.yaml:${pinnedLine}:`);

    const moved = (await readFile(pipeline, "utf8")).replace(`pinned: ${PIN}`, "pinned: nowhere.schema.json");
    const missing = await runCli(["validate", await workspace.write("moved.yaml", moved)], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /moved\.yaml:\d+:\d+: sinks\.0\.schema\.pinned: "nowhere\.schema\.json" cannot be read \(ENOENT\); write it with mdq-export schema/,
    );
  });
});
