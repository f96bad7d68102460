// The built CLI is a bundle (scripts/bundle.mjs): a few files load instead of hundreds. What the
// bundle must keep: lazy commands, every package inside it, and dist/ running alone, as the container
// image holds it (no node_modules beside it); and no test hook in what ships, whatever the environment
// says.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_ENTRY, REPO_ROOT, TEST_HOOKS_CLI_ENTRY } from "./support/cli-harness.js";

const chunks = join(REPO_ROOT, "dist", "chunks");

/** The text of every script of a build: its main.js and its chunks. */
function bundleText(entry: string): string {
  const folder = join(entry, "..", "..", "chunks");
  const files = readdirSync(folder)
    .filter((name) => name.endsWith(".js"))
    .map((name) => join(folder, name));
  return [entry, ...files].map((file) => readFileSync(file, "utf8")).join("\n");
}

describe("the built CLI", () => {
  it("is a bundle whose commands are chunks loaded when they run", () => {
    const main = readFileSync(CLI_ENTRY, "utf8");
    expect(main).toMatch(/import\("\.\.\/chunks\/run-[\w-]+\.js"\)/);
    expect(main).not.toMatch(/from "\.\.\/pipeline\//);
  });

  it("starts and answers", () => {
    const version = execFileSync(process.execPath, [CLI_ENTRY, "--version"], { encoding: "utf8" });
    expect(version).toMatch(/^mdq-export \d+\.\d+\.\d+/);
  });

  it("imports no package: every dependency is inside the bundle", () => {
    const files = [
      CLI_ENTRY,
      ...readdirSync(chunks)
        .filter((name) => name.endsWith(".js"))
        .map((name) => join(chunks, name)),
    ];
    const builtins = new Set(builtinModules);
    const packages = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const [, name] of text.matchAll(
        /(?:from |import\(|require\()"(@?[a-z0-9][\w.-]*(?:\/[\w.-]+)*)"/g,
      )) {
        if (name !== undefined && !name.startsWith("node:") && !builtins.has(name)) packages.add(name);
      }
    }
    // The AWS SDK asks for its optional CRT signer inside a try, and signs without it when it is absent.
    packages.delete("@aws-sdk/signature-v4-crt");
    // pg loads its optional native binding only when `pg.native` is read, inside a try; we never read it.
    packages.delete("pg-native");
    expect([...packages]).toEqual([]);
    expect(existsSync(join(REPO_ROOT, "dist", "node_modules"))).toBe(false);
  });

  it("runs from dist/ alone: the demo pipeline", () => {
    const alone = mkdtempSync(join(tmpdir(), "mdq-dist-alone-"));
    try {
      cpSync(join(REPO_ROOT, "dist"), join(alone, "app", "dist"), { recursive: true });
      cpSync(join(REPO_ROOT, "package.json"), join(alone, "app", "package.json"));
      const pipeline = join(alone, "demo.yaml");
      writeFileSync(pipeline, readFileSync(join(REPO_ROOT, "pipelines", "demo.yaml"), "utf8"));
      const cli = join(alone, "app", "dist", "cli", "main.js");
      const run = execFileSync(process.execPath, [cli, "run", pipeline, "--log-level", "warn"], {
        cwd: alone,
        encoding: "utf8",
      });
      expect(run).toMatch(/complete — 24 slices exported/);
      const verified = execFileSync(process.execPath, [cli, "verify", pipeline], {
        cwd: alone,
        encoding: "utf8",
      });
      expect(verified).toMatch(/parquet: ok — 24 files/);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });

  // Issue 29: the shipped bundle honoured MDQ_TEST_PAUSE_AT, so a stray variable froze a run (SIGSTOP)
  // while it held the output lock, and SIGTERM could not end it.
  it("holds no test hook: the pause is in the test build only", () => {
    const hooks = ["MDQ_TEST_PAUSE_AT", "SIGSTOP", "test hook: paused at"];
    const tested = bundleText(TEST_HOOKS_CLI_ENTRY);
    for (const text of hooks) expect(tested.includes(text), `the test build has ${text}`).toBe(true);
    const shipped = bundleText(CLI_ENTRY);
    for (const text of hooks) expect(shipped.includes(text), `the shipped bundle has ${text}`).toBe(false);
  });

  it("runs to the end with MDQ_TEST_PAUSE_AT set, never stopping itself", async () => {
    const folder = mkdtempSync(join(tmpdir(), "mdq-no-hook-"));
    try {
      const pipeline = join(folder, "demo.yaml");
      writeFileSync(pipeline, readFileSync(join(REPO_ROOT, "pipelines", "demo.yaml"), "utf8"));
      const child = spawn(process.execPath, [CLI_ENTRY, "run", pipeline, "--log-level", "warn"], {
        cwd: folder,
        env: { PATH: process.env.PATH ?? "", MDQ_TEST_PAUSE_AT: "commit-staged" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      // A stopped process never exits: its stop is seen on the child, and it is killed there.
      const ended = await new Promise<string>((resolve) => {
        child.on("exit", (code, signal) => resolve(`exit ${code ?? signal}`));
        const stopped = setInterval(() => {
          if (!stderr.includes("paused at")) return;
          clearInterval(stopped);
          child.kill("SIGKILL");
        }, 20);
        child.on("exit", () => clearInterval(stopped));
      });
      expect(stderr).not.toContain("paused at");
      expect(ended, stderr).toBe("exit 0");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
