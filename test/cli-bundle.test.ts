// The built CLI is a bundle (scripts/bundle.mjs): a few files load instead of hundreds. What the
// bundle must keep: lazy commands, the Parquet worker where the encoder looks for it (next to the
// encoder's own module), since a worker file that is not found silently means no worker threads, and
// dist/ running alone, as the container image holds it (no node_modules beside it).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
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

  it("imports no package but the one it keeps in dist/node_modules", () => {
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
    expect([...packages]).toEqual(["tinypool"]);
    expect(existsSync(join(REPO_ROOT, "dist", "node_modules", "tinypool", "package.json"))).toBe(true);
  });

  it("runs from dist/ alone: the demo pipeline, its Parquet encoded on worker threads", () => {
    const alone = mkdtempSync(join(tmpdir(), "mdq-dist-alone-"));
    try {
      cpSync(join(REPO_ROOT, "dist"), join(alone, "app", "dist"), { recursive: true });
      cpSync(join(REPO_ROOT, "package.json"), join(alone, "app", "package.json"));
      const demo = readFileSync(join(REPO_ROOT, "pipelines", "demo.yaml"), "utf8");
      const threads = `${demo.replace(/^limits:.*$/m, "")}\nlimits: { encode_threads: 2 }\n`;
      const pipeline = join(alone, "threads.yaml");
      writeFileSync(pipeline, threads);
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
});
