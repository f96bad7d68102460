// How a plan is shown: a table of slices and a few totals, or JSON for scripts.
import type { PreparedRun } from "../pipeline/run/prepare-run.js";
import type { CommittedSlices } from "../pipeline/run/destinations.js";
import { escapedName } from "../warehouse/show-name.js";
import { estimateRunTime } from "./plan-eta.js";
import type { RunTimeEstimate } from "./plan-eta.js";

function duration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)}s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)}m`;
  return `${(seconds / 3600).toFixed(1)}h`;
}

type SlicePlan = PreparedRun["shardPlan"][number];

const sumOf = (slices: readonly SlicePlan[], value: (slice: SlicePlan) => number): number =>
  slices.reduce((sum, slice) => sum + value(slice), 0);

/**
 * The plan; with `committed` (the output's state), slices earlier runs committed are marked, and the
 * records, requests and time to come count only the slices a run without --force still exports (an
 * open slice is redone until it settles, committed or not).
 */
export function formatPlan(prepared: PreparedRun, json: boolean, committed?: CommittedSlices): string {
  const { plan, pipeline, shardPlan } = prepared;
  const isDone = (slice: SlicePlan): boolean =>
    committed !== undefined && !slice.open && committed.isCommitted(slice.slice.id);
  const toRun = shardPlan.filter((slice) => !isDone(slice));
  const done = shardPlan.length - toRun.length;
  const expected = toRun.every((slice) => slice.expected !== undefined)
    ? sumOf(toRun, (slice) => slice.expected ?? 0)
    : undefined;
  const requests = sumOf(toRun, (slice) => slice.requests);
  // The quickest of plan's round trips: its first requests also paid for connections and a cold
  // start, which the run's many requests do not.
  const latencyMs = prepared.session.client.gate.latency().minMs;
  const eta = estimateRunTime({
    sliceRequests: toRun.map((slice) => slice.requests),
    concurrency: pipeline.limits.concurrency,
    latencyMs,
    records: expected,
  });
  const etaSeconds = eta?.seconds;
  if (json) {
    return `${JSON.stringify(
      {
        pipeline: pipeline.name,
        window: {
          start: pipeline.source.window.start.toISOString(),
          end: pipeline.source.window.end.toISOString(),
        },
        shard: prepared.shard ?? null,
        slices: shardPlan.map((slice) => ({
          id: slice.slice.id,
          start: slice.slice.start.toISOString(),
          end: slice.slice.end.toISOString(),
          retrieval: slice.retrieval,
          expected: slice.expected ?? null,
          requests: slice.requests,
          open: slice.open,
          committed: isDone(slice),
        })),
        state: committed?.location ?? null,
        slices_to_run: toRun.length,
        settle_seconds: pipeline.source.window.settle_ms / 1000,
        now: pipeline.source.window.now.toISOString(),
        expected_records: expected ?? null,
        estimated_requests: requests,
        probe_requests: plan.probeRequests,
        quota_remaining: plan.quotaRemaining ?? null,
        estimated_seconds: etaSeconds ?? null,
        measured_latency_ms: latencyMs === undefined ? null : Math.round(latencyMs),
        columns: prepared.columns,
      },
      null,
      2,
    )}\n`;
  }
  const lines = [
    `${pipeline.name}: ${pipeline.source.kind} from ${pipeline.source.window.start.toISOString()} to ${pipeline.source.window.end.toISOString()}` +
      (prepared.shard === undefined ? "" : ` (shard ${prepared.shard.index}/${prepared.shard.count})`),
    "",
    `  ${"slice".padEnd(18)}${"retrieval".padEnd(11)}${"expected".padStart(12)}${"requests".padStart(10)}`,
  ];
  for (const slice of shardPlan) {
    lines.push(
      `  ${slice.slice.id.padEnd(18)}${slice.retrieval.padEnd(11)}${(slice.expected?.toLocaleString("en-US") ?? "?").padStart(12)}${String(slice.requests).padStart(10)}` +
        (slice.open ? "  open" : isDone(slice) ? "  committed" : ""),
    );
  }
  const open = shardPlan.filter((slice) => slice.open).length;
  lines.push(
    "",
    done === 0
      ? `  slices: ${shardPlan.length}; expected records: ${expected?.toLocaleString("en-US") ?? "unknown (no probe)"}`
      : `  slices: ${shardPlan.length}, ${done} committed by earlier runs (state in ${committed?.location ?? "?"}; skipped unless --force); to run: ${toRun.length}, expected records: ${expected?.toLocaleString("en-US") ?? "unknown (no probe)"}`,
    ...(open === 0
      ? []
      : [
          `  open: ${open} slice${open === 1 ? "" : "s"} end after ${new Date(pipeline.source.window.now.getTime() - pipeline.source.window.settle_ms).toISOString()} (now minus window.settle): written but not complete, redone by the next run until settled`,
        ]),
    `  requests: about ${requests.toLocaleString("en-US")} (+${plan.probeRequests} spent planning); quota left: ${plan.quotaRemaining?.toLocaleString("en-US") ?? "unknown"}` +
      (plan.quotaRemaining !== undefined && requests > plan.quotaRemaining - pipeline.limits.quota_reserve
        ? "  ⚠ more than the quota allows above the reserve"
        : ""),
    `  columns: ${shownColumns(prepared.columns)}`,
  );
  if (eta !== undefined) lines.push(`  estimated time: ${duration(eta.seconds)} ${etaBasis(eta, latencyMs)}`);
  return `${lines.join("\n")}\n`;
}

/** What the estimate rests on, in words. */
function etaBasis(eta: RunTimeEstimate, latencyMs: number | undefined): string {
  if (eta.boundBy === "encoding") return "(bound by encoding the records, not by the service's round trips)";
  return `(${eta.roundTrips.toLocaleString("en-US")} round trips one after the other at the ${Math.round(latencyMs ?? 0)} ms measured)`;
}

const COLUMNS_SHOWN = 100;

/** The first columns (names escaped: they are the service's), then how many more. */
function shownColumns(columns: PreparedRun["columns"]): string {
  const shown = columns.slice(0, COLUMNS_SHOWN).map((column) => `${escapedName(column.name)}:${column.type}`);
  const more = columns.length - shown.length;
  return more > 0 ? `${shown.join(", ")}, … and ${more} more` : shown.join(", ");
}
