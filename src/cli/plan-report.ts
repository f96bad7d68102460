// How a plan is shown: a table of slices and a few totals, or JSON for scripts.
import type { PreparedRun } from "../pipeline/run/prepare-run.js";
import type { CommittedSlices } from "../pipeline/run/destinations.js";
import { escapedName } from "../warehouse/show-name.js";

/**
 * Records per second assumed for the ETA. `npm run bench` (bench/RESULTS.md, docs/performance.md) at the
 * defaults (page_size 1000, 4 slices at once, 50–70 ms per request, 2 cores) measured 27,000–33,000
 * records/s into Parquet and 38,000–56,000 into NDJSON; the ETA takes the slower format, rounded down.
 * The wire sets the pace (one page per round trip per slice), so a slower service is proportionally slower.
 */
export const PLANNING_RATE_RECORDS_PER_S = 25_000;

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
  const etaSeconds = expected === undefined ? undefined : expected / PLANNING_RATE_RECORDS_PER_S;
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
  if (etaSeconds !== undefined)
    lines.push(
      `  estimated time: ${duration(etaSeconds)} at ${PLANNING_RATE_RECORDS_PER_S.toLocaleString("en-US")} records/s`,
    );
  return `${lines.join("\n")}\n`;
}

const COLUMNS_SHOWN = 100;

/** The first columns (names escaped: they are the service's), then how many more. */
function shownColumns(columns: PreparedRun["columns"]): string {
  const shown = columns.slice(0, COLUMNS_SHOWN).map((column) => `${escapedName(column.name)}:${column.type}`);
  const more = columns.length - shown.length;
  return more > 0 ? `${shown.join(", ")}, … and ${more} more` : shown.join(", ");
}
