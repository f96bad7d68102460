// `npm run build` builds only what changed (docs/performance.md, "The build"), on a copy of the project
// so that the dist/ the other tests run stays as it is: a second build with nothing changed leaves both
// bundles and the copied modules untouched, and a changed source still reaches dist/ and dist-test/,
// also when dist/ is gone while tsc's own output in .build/ says it is up to date; a module whose source
// is gone is gone from both. The copy starts from
// this checkout's .build/ (tsc's output without the bundle's stamp: `npm test` has built it), so tsc
// checks rather than compiles.
import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./support/cli-harness.js";

/** What the build reads: the sources, the scripts and the configuration, with the installed packages. */
const PROJECT = [
  "src",
  "scripts",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
];

const run = promisify(execFile);

/** `npm run build`, as the README's commands run it, with the bundle saying what it did. */
async function build(project: string): Promise<string> {
  return (await run("npm", ["run", "build", "--silent", "--", "--verbose"], { cwd: project })).stdout;
}

/**
 * When each file the build writes last changed (its inode's change time, which any write moves), by
 * path: both entries, every chunk, and the compiled modules copied into dist/.
 */
function writeTimes(project: string): Record<string, number> {
  const files = [
    ...["dist", "dist-test"].flatMap((folder) => [
      join(folder, "cli", "main.js"),
      ...readdirSync(join(project, folder, "chunks")).map((name) => join(folder, "chunks", name)),
    ]),
    ...readdirSync(join(project, "dist", "cli", "commands")).map((name) =>
      join("dist", "cli", "commands", name),
    ),
    join("dist", "errors.js"),
  ];
  return Object.fromEntries(files.map((file) => [file, statSync(join(project, file)).ctimeMs]));
}

/** What `validate --help` prints from the entry of one build. */
async function validateHelp(project: string, folder: string): Promise<string> {
  return (await run(process.execPath, [join(project, folder, "cli", "main.js"), "validate", "--help"]))
    .stdout;
}

describe("the build", () => {
  it("skips the bundle when nothing changed, and brings a changed source into dist/ and dist-test/", async () => {
    const project = mkdtempSync(join(tmpdir(), "mdq-build-"));
    try {
      for (const path of PROJECT) cpSync(join(REPO_ROOT, path), join(project, path), { recursive: true });
      symlinkSync(join(REPO_ROOT, "node_modules"), join(project, "node_modules"), "dir");
      // Without a build here, the first build of the copy compiles everything: slower, as correct.
      if (existsSync(join(REPO_ROOT, ".build")))
        cpSync(join(REPO_ROOT, ".build"), join(project, ".build"), {
          recursive: true,
          filter: (path) => basename(path) !== "bundle.stamp.json",
        });

      expect(await build(project)).toMatch(/^bundled \d+ files/m);
      const built = writeTimes(project);
      expect(await build(project)).toMatch(/^bundle up to date/m);
      expect(writeTimes(project)).toEqual(built);

      // A module below the entry, whose change tsc writes alone: the bundle must read it again.
      const usage = join(project, "src", "cli", "commands", "validate.ts");
      const before = readFileSync(usage, "utf8");
      const probe = `probe ${process.pid}-${Date.now()}`;
      expect(before).toContain("Usage: mdq-export validate ");
      writeFileSync(
        usage,
        before.replace("Usage: mdq-export validate ", `Usage: mdq-export validate (${probe}) `),
      );
      // A module of its own, which nothing imports: compiled and copied like every module.
      const orphan = join("core", "orphan-probe");
      writeFileSync(join(project, "src", `${orphan}.ts`), `export const probe = "${probe}";\n`);
      expect(await build(project)).toMatch(/^bundled \d+ files/m);
      expect(await validateHelp(project, "dist")).toContain(probe);
      expect(await validateHelp(project, "dist-test")).toContain(probe);
      expect(existsSync(join(project, "dist", `${orphan}.js`))).toBe(true);
      expect(readFileSync(join(project, "dist", "cli", "commands", "validate.js"), "utf8")).toContain(probe);

      // tsc finds nothing to do, yet dist/ is built again from its output; and a module whose source
      // is gone leaves .build/ and dist/, so that nothing imports it from there.
      rmSync(join(project, "dist"), { recursive: true });
      rmSync(join(project, "src", `${orphan}.ts`));
      expect(await build(project)).toMatch(/^bundled \d+ files/m);
      expect(existsSync(join(project, ".build", `${orphan}.js`))).toBe(false);
      expect(existsSync(join(project, "dist", `${orphan}.js`))).toBe(false);
      expect(await validateHelp(project, "dist")).toContain(probe);
      expect(readFileSync(join(project, "dist", "cli", "commands", "validate.js"), "utf8")).toContain(probe);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 600_000);
});
