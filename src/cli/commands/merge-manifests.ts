// `mdq-export merge-manifests PIPELINE --shard-count N`: the last step of a sharded backfill —
// combines the shards' manifests into `_manifest.json` and writes `_SUCCESS` when every shard is complete.
import { loadPipeline } from "../../config/load-pipeline.js";
import { EtlError } from "../../errors.js";
import type { Manifest } from "../../pipeline/output-state/manifest.js";
import { manifestObjectPath, manifestTotals, writeManifest } from "../../pipeline/output-state/manifest.js";
import { forEachDestination, readManifest } from "../../pipeline/run/destinations.js";
import { newRunInfo } from "../../pipeline/run/prepare-run.js";
import { lockObjectPath, lockOutputs } from "../../pipeline/output-state/output-lock.js";
import type { OutputStore } from "../../core/contracts.js";
import { LOG_FORMAT_OPTION, commandLogger } from "../command-logger.js";
import { argumentError, parseCommandArgs, requirePipelineFile, showedHelp } from "../command-options.js";
import { EXIT } from "../io.js";
import type { Command } from "../io.js";

const MERGE_USAGE = `Usage: mdq-export merge-manifests PIPELINE.yaml --shard-count N

Reads _manifest.shard-I-of-N.json for every shard I of each destination and writes the combined
_manifest.json; _SUCCESS follows when every shard's manifest is complete. Exit code 75 when a shard
has not finished (run the missing shards, then merge again).

It takes the output's lock as a run does: while a run without shards writes the same output, it
stops with exit 75 naming that run, and writes nothing.

Options:
  --shard-count N   the number of shards the backfill ran with (or MDQ_SHARD_COUNT)
  --log-level L     error, warn (default), info, debug (or MDQ_LOG_LEVEL)
  --log-format F    json or pretty (or MDQ_LOG_FORMAT; pretty on a terminal)
  -h, --help        show this help`;

function mergeManifests(manifests: readonly Manifest[], runId: string, now: Date): Manifest {
  const first = manifests[0];
  if (first === undefined) throw new EtlError("MANIFEST_MISSING", "no shard manifest to merge");
  const slices = manifests
    .flatMap((manifest) => manifest.slices)
    .sort((a, b) => a.start.localeCompare(b.start));
  const files = manifests.flatMap((manifest) => manifest.files);
  return {
    ...first,
    run_id: runId,
    generated_at: now.toISOString(),
    complete: manifests.every((manifest) => manifest.complete),
    totals: manifestTotals(slices, files),
    slices,
    files,
  };
}

export const mergeManifestsCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      help: { type: "boolean", short: "h" },
      "shard-count": { type: "string" },
      debug: { type: "boolean" },
      "log-level": { type: "string" },
      ...LOG_FORMAT_OPTION,
    },
    MERGE_USAGE,
  );
  if (showedHelp(values, io, MERGE_USAGE)) return EXIT.ok;
  const file = requirePipelineFile(positionals, MERGE_USAGE);
  const countText = values["shard-count"] ?? io.env.MDQ_SHARD_COUNT;
  const count = countText === undefined ? Number.NaN : Number(countText);
  if (!Number.isInteger(count) || count < 1)
    throw argumentError(
      "--shard-count",
      `--shard-count must be a whole number of at least 1, got ${countText ?? "nothing"}`,
    );
  const log = commandLogger(values, io, "warn");
  const components = io.components;
  const pipeline = await loadPipeline(file, { env: io.env, withoutService: true, components });
  let incomplete = false;
  const run = newRunInfo(pipeline.name);
  const runId = run.runId;
  await forEachDestination(pipeline, components, async (store) => {
    // The whole output's lock, as a run without shards takes it: the merged manifest and _SUCCESS are
    // that run's objects too, and one of the two writing them at once would leave a mixed result.
    const lock = await lockOutputs({ stores: [store], path: lockObjectPath(undefined), run, log });
    try {
      await mergeDestination(store, lock.fence);
    } finally {
      await lock.release().catch(() => undefined);
    }
  });
  return incomplete ? EXIT.resumable : EXIT.ok;

  async function mergeDestination(store: OutputStore, fence: () => Promise<void>): Promise<void> {
    const manifests: Manifest[] = [];
    for (let index = 0; index < count; index++) {
      const path = manifestObjectPath({ index, count });
      const manifest = await readManifest(store, path);
      if (manifest === undefined) {
        io.stderr.write(`${store.location}: ${path} is missing (shard ${index} has not run)\n`);
        incomplete = true;
        continue;
      }
      manifests.push(manifest);
    }
    if (manifests.length === 0) return;
    // A shard manifest left by an earlier backfill (another window, or before the pipeline changed)
    // must not make this one look complete.
    const reference = manifests[0] as Manifest;
    const stale = manifests.filter(
      (manifest) =>
        manifest.fingerprint !== reference.fingerprint ||
        manifest.window?.start !== reference.window?.start ||
        manifest.window?.end !== reference.window?.end,
    );
    for (const manifest of stale) {
      io.stderr.write(
        `${store.location}: a shard manifest covers ${manifest.window?.start ?? "?"} to ${manifest.window?.end ?? "?"} ` +
          `(fingerprint ${manifest.fingerprint.slice(0, 12)}), not ${reference.window?.start ?? "?"} to ${reference.window?.end ?? "?"} ` +
          `(${reference.fingerprint.slice(0, 12)}); rerun every shard over the same window\n`,
      );
    }
    const merged = mergeManifests(manifests, runId, new Date());
    const complete = merged.complete && manifests.length === count && stale.length === 0;
    await fence();
    await writeManifest(store, { ...merged, complete });
    incomplete ||= !complete;
    io.stdout.write(
      `${store.location}: merged ${manifests.length}/${count} shard manifests — ${merged.totals.files} files, ` +
        `${merged.totals.rows.toLocaleString("en-US")} rows${complete ? "; _SUCCESS written" : "; not complete"}\n`,
    );
  }
};
