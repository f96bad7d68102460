// The built CLI is a bundle (scripts/bundle.mjs): a few files load instead of hundreds. What the
// bundle must keep: lazy commands, and the Parquet worker where the encoder looks for it (next to the
// encoder's own module), since a worker file that is not found silently means no worker threads.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_ENTRY, REPO_ROOT } from "./support/cli-harness.js";

const chunks = join(REPO_ROOT, "dist", "chunks");

describe("the built CLI", () => {
  it("is a bundle whose commands are chunks loaded when they run", () => {
    const main = readFileSync(CLI_ENTRY, "utf8");
    expect(main).toMatch(/import\("\.\.\/chunks\/run-[\w-]+\.js"\)/);
    expect(main).not.toMatch(/from "\.\.\/pipeline\//);
  });

  it("keeps the Parquet row-group worker beside the chunk of the encoder that starts it", () => {
    const starting = readdirSync(chunks)
      .filter((name) => name.endsWith(".js"))
      .filter((name) => readFileSync(join(chunks, name), "utf8").includes('"./parquet-row-group-worker.js"'));
    expect(starting).toHaveLength(1);
    expect(existsSync(join(chunks, "parquet-row-group-worker.js"))).toBe(true);
    const worker = readFileSync(join(chunks, "parquet-row-group-worker.js"), "utf8");
    expect(worker).toContain("encodeLinesInWorker");
  });

  it("starts and answers", () => {
    const version = execFileSync(process.execPath, [CLI_ENTRY, "--version"], { encoding: "utf8" });
    expect(version).toMatch(/^mdq-export \d+\.\d+\.\d+/);
  });
});
