// Bundles the compiled CLI (dist/, from tsc) so that a run loads a few files instead of hundreds:
// Node's module loader spent about a quarter of a second of CPU resolving, reading and compiling the
// CLI's modules and dependencies on every run (docs/performance.md, "The start"). Commands stay lazy:
// each is a chunk loaded when it runs. Every dependency is bundled, so dist/ alone runs the CLI (the
// container image holds no node_modules).
//
// Two builds from the same modules: the shipped one in dist/, with MDQ_TEST_HOOKS false so the test
// hooks (src/core/test-hook.ts) are dead code and stripped, and a test build in dist-test/ with them,
// which the crash tests start. Nothing ships dist-test/.
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { join } from "node:path";
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
  return build({
    ...options,
    entryPoints: [join(dist, "cli", "main.js")],
    outdir,
    outbase: dist,
    splitting: true,
    chunkNames: `${chunks}/[name]-[hash]`,
  });
}

// The test build first: the shipped one overwrites dist/cli/main.js, the entry both start from.
rmSync(testDist, { recursive: true, force: true });
await bundleCli(testDist, true);
const cli = await bundleCli(dist, false);

const size = Object.values(cli.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
if (process.argv.includes("--verbose")) {
  console.log(`bundled ${Object.keys(cli.metafile.outputs).length} files, ${(size / 1e6).toFixed(1)} MB`);
}

// Packages an earlier build kept beside the bundle: none is needed now.
rmSync(join(dist, "node_modules"), { recursive: true, force: true });
