// The benchmark scripts (bench/*.js) import the built modules they measure from dist/. They are plain
// JavaScript that neither the type check nor lint follows into dist/, so a module moved or folded away
// by a restructuring would break a benchmark silently until someone ran it; this test names it instead.
// (`npm test` builds first, so dist/ is this tree's.)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bench = join(root, "bench");
/** `import("../dist/…")` and `from "../dist/…"` as the scripts write them. */
const DIST_IMPORT = /["'](\.\.\/dist\/[^"']+\.js)["']/g;

describe("the benchmark scripts", () => {
  const scripts = readdirSync(bench).filter((name) => name.endsWith(".js"));

  it("are found", () => {
    expect(scripts).toContain("run.js");
  });

  it.each(scripts)("%s imports only built modules that exist", (script) => {
    const text = readFileSync(join(bench, script), "utf8");
    const missing = [...text.matchAll(DIST_IMPORT)]
      .map((match) => match[1] as string)
      .filter((specifier) => !existsSync(resolve(bench, specifier)));
    expect(missing).toEqual([]);
  });
});
