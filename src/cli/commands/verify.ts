// `mdq-export verify PIPELINE`: re-reads every destination of a pipeline and checks it against its
// manifest — rows, checksums, no file missing, truncated or extra.
import { formatOf } from "../../components/environment.js";
import { loadPipeline } from "../../config/load-pipeline.js";
import { EtlError } from "../../errors.js";
import { forEachDestination, readManifest } from "../../pipeline/run/destinations.js";
import { manifestObjectPath } from "../../pipeline/output-state/manifest.js";
import { resolveShard } from "../../pipeline/plan/shard.js";
import type { Shard } from "../../pipeline/plan/shard.js";
import type { OutputStore } from "../../core/contracts.js";
import { verifyExport } from "../../pipeline/output-state/verify.js";
import { rowCounterOf } from "../../sinks/sink.js";
import { parseCommandArgs, requirePipelineFile, showedHelp } from "../command-options.js";
import { EXIT } from "../io.js";
import type { Command } from "../io.js";

const VERIFY_USAGE = `Usage: mdq-export verify PIPELINE.yaml [--shard I/N]

Reads each destination's manifest and re-reads every file it lists: the row count (Parquet footer,
NDJSON lines, gzip or not) and the SHA-256 must match, and no data file may be missing or extra.
Exit code 1 when anything does not match. Nothing is requested from the service, so the
service section (and its credentials) is not needed.

Options:
  --shard I/N   check one shard of a sharded run (I counts from 0): its manifest, and as extra only
                the files no shard's manifest lists, since the shards share the destination
  -h, --help    show this help`;

/** The data files the other shards' manifests list: theirs, not extra to this shard. */
async function otherShardsFiles(store: OutputStore, shard: Shard): Promise<Set<string>> {
  const files = new Set<string>();
  for (let index = 0; index < shard.count; index++) {
    if (index === shard.index) continue;
    const manifest = await readManifest(store, manifestObjectPath({ index, count: shard.count }));
    for (const file of manifest?.files ?? []) files.add(file.path);
  }
  return files;
}

export const verifyCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    { help: { type: "boolean", short: "h" }, shard: { type: "string" }, debug: { type: "boolean" } },
    VERIFY_USAGE,
  );
  if (showedHelp(values, io, VERIFY_USAGE)) return EXIT.ok;
  const components = io.components;
  const pipeline = await loadPipeline(requirePipelineFile(positionals, VERIFY_USAGE), {
    env: io.env,
    withoutService: true,
    components,
  });
  const shard = resolveShard(values.shard, undefined, {});
  let problems = 0;
  await forEachDestination(pipeline, components, async (store, sink) => {
    const manifest = await readManifest(store, manifestObjectPath(shard));
    if (manifest === undefined) {
      throw new EtlError(
        "MANIFEST_MISSING",
        `${store.location} has no ${manifestObjectPath(shard)}; has the pipeline run?`,
      );
    }
    const sharded = shard !== undefined && shard.count > 1;
    const report = await verifyExport(store, manifest, rowCounterOf(sink, formatOf(components, sink)), {
      listedElsewhere: sharded ? await otherShardsFiles(store, shard) : undefined,
      manifestName: sharded ? `${manifestObjectPath(shard)} nor in another shard's manifest` : undefined,
    });
    for (const problem of report.problems)
      io.stdout.write(`${store.location}: ${problem.kind}: ${problem.message}\n`);
    problems += report.problems.length;
    io.stdout.write(
      `${store.location}: ${report.problems.length === 0 ? "ok" : `${report.problems.length} problem(s)`} — ` +
        `${report.files} files, ${report.rows.toLocaleString("en-US")} rows checked against the manifest` +
        `${manifest.complete ? "" : " (the export is not complete yet)"}\n`,
    );
  });
  return problems === 0 ? EXIT.ok : EXIT.failed;
};
