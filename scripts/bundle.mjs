// Bundles the compiled CLI (.build/, from tsc) so that a run loads a few files instead of hundreds:
// Node's module loader spent about a quarter of a second of CPU resolving, reading and compiling the
// CLI's modules and dependencies on every run (docs/performance.md, "The start"). Commands stay lazy:
// each is a chunk loaded when it runs. The Parquet row-group worker is bundled on its own, beside the
// chunks, where the encoder looks for it (next to its own module). tinypool stays external: it starts
// its threads from a file of its own package. It is copied to dist/node_modules, where the chunks
// resolve it first, so dist/ alone runs the CLI (the container image holds no other node_modules).
//
// Two builds from the same modules: the shipped one in dist/, with MDQ_TEST_HOOKS false so the test
// hooks (src/core/test-hook.ts) are dead code and stripped, and a test build in dist-test/ with them,
// which the crash tests start. Nothing ships dist-test/.
//
// A build with nothing changed costs no bundle (docs/performance.md, "The build"): tsc writes only the
// modules that changed into .build/ (`tsc -b`, incremental), each changed module is copied into dist/
// (the compiled modules stay importable there, one by one, for the benchmarks and tests), and the two
// bundles are skipped when the stamp in .build/ says they were built from exactly the files there now
// and are still what was written. tsc writes into .build/ rather than dist/ because the bundle replaces
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
  external: ["tinypool"],
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
  const cli = await build({
    ...options,
    entryPoints: [join(compiled, entry)],
    outdir,
    outbase: compiled,
    splitting: true,
    chunkNames: `${chunks}/[name]-[hash]`,
  });
  const worker = await build({
    ...options,
    entryPoints: [join(compiled, "formats", "parquet-row-group-worker.js")],
    outfile: join(outdir, chunks, "parquet-row-group-worker.js"),
  });
  return { cli, worker };
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

/** Everything the bundles write: the entry and the chunks in each build, and the external packages. */
function bundleOutputs() {
  return [
    ...filesUnder(root, testDist),
    ...[entry, `${entry}.map`].map((path) => relative(root, join(dist, path))),
    ...filesUnder(root, join(dist, chunks)),
    ...filesUnder(root, join(dist, "node_modules")),
  ];
}

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
const { cli, worker } = await bundleCli(dist, false);

// The encoder finds its worker next to its own module: it must sit in a chunk, not in main.js.
const encoder = join(compiled, "formats", "parquet.js");
const holders = Object.entries(cli.metafile.outputs)
  .filter(([, output]) => Object.keys(output.inputs).some((input) => join(root, input) === encoder))
  .map(([path]) => relative(dist, join(root, path)));
if (holders.length !== 1 || !holders[0].startsWith(`${chunks}/`)) {
  throw new Error(
    `the Parquet encoder must be bundled into one chunk under dist/${chunks}/, found: ${holders.join(", ")}`,
  );
}
const size = Object.values(cli.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
if (verbose) {
  console.log(`bundled ${Object.keys(cli.metafile.outputs).length} files, ${(size / 1e6).toFixed(1)} MB`);
}

// The external packages beside the bundle. Each must need nothing else: a dependency of its own would
// be missing from dist/ alone, so one is refused here rather than found missing in the image.
rmSync(join(dist, "node_modules"), { recursive: true, force: true });
for (const name of common.external) {
  const from = join(root, "node_modules", name);
  const manifest = JSON.parse(readFileSync(join(from, "package.json"), "utf8"));
  const needs = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  if (needs.length > 0) {
    throw new Error(
      `${name}, external to the bundle, depends on ${needs.join(", ")}: copy those to dist/node_modules too`,
    );
  }
  cpSync(from, join(dist, "node_modules", name), { recursive: true, dereference: true });
}

// The dependencies each bundle read from node_modules are inputs too: an upgraded package rebuilds it.
const dependencies = [cli, worker, tested.cli, tested.worker].flatMap((result) =>
  Object.keys(result.metafile.inputs).filter((input) => input.includes("node_modules")),
);
const externals = common.external.flatMap((name) => filesUnder(root, join(root, "node_modules", name)));
writeStamp(
  root,
  stamp,
  { ...inputs, ...fingerprint(root, [...dependencies, ...externals]) },
  bundleOutputs(),
);
