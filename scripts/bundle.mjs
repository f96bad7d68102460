// Bundles the compiled CLI (.build/, from tsc) so that a run loads a few files instead of hundreds:
// Node's module loader spent about a quarter of a second of CPU resolving, reading and compiling the
// CLI's modules and dependencies on every run (docs/performance.md, "The start"). Commands stay lazy:
// each is a chunk loaded when it runs. Every dependency is bundled, so dist/ alone runs the CLI (the
// container image holds no node_modules).
//
// Two builds from the same modules: the shipped one in dist/, with MDQ_TEST_HOOKS false so the test
// hooks (src/core/test-hook.ts) are dead code and stripped, and a test build in dist-test/ with them,
// which the crash tests start. Nothing ships dist-test/.
//
// A build with nothing changed costs no bundle (docs/performance.md, "The build"): tsc writes only the
// modules that changed into .build/ (`tsc -b`, incremental), each changed module is copied into dist/
// (the compiled modules stay importable there, one by one, for the benchmarks and tests), and the two
// bundles are skipped when the stamp in .build/ says they were built from exactly the files there now
// and are still what was written. A module whose source is gone is removed from .build/ and dist/, so
// nothing runs or is imported from a file the sources no longer hold. tsc writes into .build/ rather than dist/ because the bundle replaces
// dist/cli/main.js: tsc, which rewrites only what changed, would otherwise leave the bundle to be
// bundled again.
import { build } from "esbuild";
import { cpSync, existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { clearStamp, filesUnder, fingerprint, isUpToDate, writeStamp } from "./build-stamp.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const compiled = join(root, ".build");
const dist = join(root, "dist");
const testDist = join(root, "dist-test");
const chunks = "chunks";
const stamp = join(compiled, "bundle.stamp.json");
const verbose = process.argv.includes("--verbose");
/** The bundle's own entry in dist/: never a copy of the compiled module. */
const entry = join("cli", "main.js");

// Dependencies written as CommonJS call `require`, which an ES module does not have.
const banner = {
  js: "import { createRequire as __mdqCreateRequire } from 'node:module'; const require = __mdqCreateRequire(import.meta.url);",
};
const common = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  banner,
  sourcemap: "linked",
  logLevel: "warning",
  allowOverwrite: true,
  metafile: true,
  absWorkingDir: root,
};

/** Bundles the CLI from the compiled modules in .build/ into `outdir`, with or without the test hooks. */
async function bundleCli(outdir, testHooks) {
  const options = { ...common, define: { MDQ_TEST_HOOKS: String(testHooks) } };
  // Chunks of an earlier build have other names: start from none.
  rmSync(join(outdir, chunks), { recursive: true, force: true });
  return build({
    ...options,
    entryPoints: [join(compiled, entry)],
    outdir,
    outbase: compiled,
    splitting: true,
    chunkNames: `${chunks}/[name]-[hash]`,
  });
}

/**
 * Removes the compiled modules whose source is gone: tsc leaves them in .build/ (and the copy step
 * would carry them into dist/), where an import of a moved or deleted module would still succeed.
 */
function removeOrphans() {
  for (const path of compiledModules()) {
    const module = relative(compiled, join(root, path));
    const source = join(root, "src", module.replace(/\.js(\.map)?$/, ".ts"));
    if (!existsSync(source)) rmSync(join(root, path));
  }
  const kept = new Set(compiledModules().map((path) => relative(compiled, join(root, path))));
  for (const path of filesUnder(root, dist)) {
    const module = relative(dist, join(root, path));
    if (!module.endsWith(".js") && !module.endsWith(".js.map")) continue;
    if (module.startsWith(`${chunks}/`) || module === entry || module === `${entry}.map`) continue;
    if (!kept.has(module)) rmSync(join(root, path));
  }
}

/**
 * Copies each compiled module (and its source map) into dist/ where dist/ lacks it or holds other
 * bytes. Bytes, not times: a copy's time is not the original's to the nanosecond, so every module
 * would look changed on every build.
 */
function copyCompiledModules() {
  for (const path of compiledModules()) {
    const module = relative(compiled, join(root, path));
    if (module === entry || module === `${entry}.map`) continue;
    const from = join(root, path);
    const to = join(dist, module);
    const same =
      existsSync(to) &&
      statSync(to).size === statSync(from).size &&
      readFileSync(to).equals(readFileSync(from));
    if (!same) cpSync(from, to);
  }
}

/** The compiled modules and their maps, relative to the root. */
function compiledModules() {
  return filesUnder(root, compiled).filter((path) => path.endsWith(".js") || path.endsWith(".js.map"));
}

/** What the bundles are made of, besides the dependencies esbuild reads (known once it has read them). */
function ownInputs() {
  const own = [
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    "scripts/bundle.mjs",
    "scripts/build-stamp.mjs",
  ];
  return [...compiledModules(), ...own];
}

/** Everything the bundles write: the entry and the chunks in each build. */
function bundleOutputs() {
  return [
    ...filesUnder(root, testDist),
    ...[entry, `${entry}.map`].map((path) => relative(root, join(dist, path))),
    ...filesUnder(root, join(dist, chunks)),
  ];
}

removeOrphans();
copyCompiledModules();
if (isUpToDate(root, stamp, ownInputs())) {
  if (verbose) console.log("bundle up to date: dist/ and dist-test/ left as they are");
  process.exit(0);
}
clearStamp(stamp);
const inputs = fingerprint(root, ownInputs());

// The test build first: a leftover from an earlier build in the way of either is removed.
rmSync(testDist, { recursive: true, force: true });
const tested = await bundleCli(testDist, true);
const cli = await bundleCli(dist, false);

const size = Object.values(cli.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
if (verbose) {
  console.log(`bundled ${Object.keys(cli.metafile.outputs).length} files, ${(size / 1e6).toFixed(1)} MB`);
}

// Packages an earlier build kept beside the bundle: none is needed now.
rmSync(join(dist, "node_modules"), { recursive: true, force: true });

// The dependencies each bundle read from node_modules are inputs too: an upgraded package rebuilds it.
const dependencies = [cli, tested].flatMap((result) =>
  Object.keys(result.metafile.inputs).filter((input) => input.includes("node_modules")),
);
writeStamp(root, stamp, { ...inputs, ...fingerprint(root, dependencies) }, bundleOutputs());
