// Bundles the compiled CLI (dist/, from tsc) so that a run loads a few files instead of hundreds:
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
import { build } from "esbuild";
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const testDist = join(root, "dist-test");
const chunks = "chunks";

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
};

/** Bundles the CLI from the compiled modules in dist/ into `outdir`, with or without the test hooks. */
async function bundleCli(outdir, testHooks) {
  const options = { ...common, define: { MDQ_TEST_HOOKS: String(testHooks) } };
  // Chunks of an earlier build have other names: start from none.
  rmSync(join(outdir, chunks), { recursive: true, force: true });
  const cli = await build({
    ...options,
    entryPoints: [join(dist, "cli", "main.js")],
    outdir,
    outbase: dist,
    splitting: true,
    chunkNames: `${chunks}/[name]-[hash]`,
  });
  await build({
    ...options,
    entryPoints: [join(dist, "formats", "parquet-row-group-worker.js")],
    outfile: join(outdir, chunks, "parquet-row-group-worker.js"),
  });
  return cli;
}

// The test build first: the shipped one overwrites dist/cli/main.js, the entry both start from.
rmSync(testDist, { recursive: true, force: true });
await bundleCli(testDist, true);
const cli = await bundleCli(dist, false);

// The encoder finds its worker next to its own module: it must sit in a chunk, not in main.js.
const encoder = join(dist, "formats", "parquet.js");
const holders = Object.entries(cli.metafile.outputs)
  .filter(([, output]) => Object.keys(output.inputs).some((input) => join(root, input) === encoder))
  .map(([path]) => relative(dist, join(root, path)));
if (holders.length !== 1 || !holders[0].startsWith(`${chunks}/`)) {
  throw new Error(
    `the Parquet encoder must be bundled into one chunk under dist/${chunks}/, found: ${holders.join(", ")}`,
  );
}
const size = Object.values(cli.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
if (process.argv.includes("--verbose")) {
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
