// The partition grid of a pipeline's paths: `{hour}` and `{date}` name a file after its slice's start,
// so every row of a slice must share that start's hour (day). A fixed slice must divide the unit (slices
// are aligned to multiples of their length since the epoch, so one that divides it never crosses it);
// `slice: auto` is capped at it by the planner; a v1 source, one slice over the whole window, cannot.
import type { z } from "zod";
import { compilePathTemplate, DEFAULT_PATH_TEMPLATE } from "../sinks/path-template.js";
import { formatDuration } from "./duration.js";

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The smallest time unit the sinks' paths name, and where it was found. */
interface PartitionGrid {
  placeholder: "{hour}" | "{date}";
  /** The unit in milliseconds: an hour or a day. */
  ms: number;
  /** Index of the sink whose path names it. */
  sink: number;
}

/** A sink's path compiled, or undefined when it does not compile: the sink schema reports the template. */
export function compiledPath(path: string | undefined): ReturnType<typeof compilePathTemplate> | undefined {
  try {
    return compilePathTemplate(path ?? DEFAULT_PATH_TEMPLATE);
  } catch {
    return undefined;
  }
}

/** The finest of the sinks' time placeholders; undefined when no path names a time. */
export function partitionGrid(sinks: readonly { path?: string | undefined }[]): PartitionGrid | undefined {
  let grid: PartitionGrid | undefined;
  for (const [index, sink] of sinks.entries()) {
    const builtIns = compiledPath(sink.path)?.builtIns;
    if (builtIns === undefined) continue;
    const found: PartitionGrid | undefined = builtIns.has("hour")
      ? { placeholder: "{hour}", ms: HOUR_MS, sink: index }
      : builtIns.has("date")
        ? { placeholder: "{date}", ms: DAY_MS, sink: index }
        : undefined;
    if (found !== undefined && (grid === undefined || found.ms < grid.ms)) grid = found;
  }
  return grid;
}

/** Whether slices of `sliceMs`, epoch-aligned, stay inside one unit of the grid. */
export function fitsGrid(sliceMs: number, gridMs: number): boolean {
  return sliceMs <= gridMs && gridMs % sliceMs === 0;
}

/** The slice sizes a message offers: every whole-minute divisor for an hour, the usual ones for a day. */
function allowedSlices(grid: PartitionGrid): string {
  const minutes = grid.ms / MINUTE_MS;
  const sizes: string[] = [];
  for (let length = 1; length <= minutes; length++) {
    if (minutes % length !== 0) continue;
    const ms = length * MINUTE_MS;
    if (grid.ms === HOUR_MS || ms >= 15 * MINUTE_MS) sizes.push(formatDuration(ms));
  }
  const list = `${sizes.slice(0, -1).join(", ")} or ${sizes.at(-1) ?? ""}`;
  return grid.ms === HOUR_MS
    ? `use ${list} (or seconds that divide 1h)`
    : `use a slice that divides 1d exactly: ${list}, or one that divides 1h`;
}

/**
 * Refuses what would put rows under another slice's hour or day: a fixed slice that does not divide
 * the paths' smallest unit, and a time placeholder on a v1 source (its one request is the whole window).
 */
export function checkPartitionGrid(
  pipeline: {
    source: { api: string; window: { slice_ms: number | "auto"; expression: { slice: string } } };
    sinks: readonly { path?: string | undefined }[];
  },
  ctx: z.RefinementCtx,
): void {
  const grid = partitionGrid(pipeline.sinks);
  if (grid === undefined) return;
  const where = `sinks[${grid.sink}].path`;
  if (pipeline.source.api === "v1") {
    ctx.addIssue({
      code: "custom",
      path: ["sinks", grid.sink, "path"],
      message: `${grid.placeholder} names a file after its slice's start, but a v1 source reads its whole window as one slice, so rows of every ${grid.ms === HOUR_MS ? "hour" : "day"} would sit under the first; use {slice} or a record field in the path instead`,
    });
    return;
  }
  const { slice_ms: sliceMs, expression } = pipeline.source.window;
  if (sliceMs === "auto" || fitsGrid(sliceMs, grid.ms)) return;
  ctx.addIssue({
    code: "custom",
    path: ["source", "window", "slice"],
    message: `slice ${expression.slice} does not divide ${grid.placeholder} (${where}: files are named after the slice's start, so a slice that crosses ${grid.ms === HOUR_MS ? "an hour" : "a day"} would put rows under the wrong one): ${allowedSlices(grid)}`,
  });
}

/** The pipeline with its window's `partition_ms` set from the sinks' paths, for the planner's auto slices. */
export function withPartitionGrid<
  P extends {
    source: { window: { partition_ms?: number | undefined } };
    sinks: readonly { path?: string | undefined }[];
  },
>(pipeline: P): P {
  const partitionMs = partitionGrid(pipeline.sinks)?.ms;
  if (partitionMs === undefined) return pipeline;
  return {
    ...pipeline,
    source: { ...pipeline.source, window: { ...pipeline.source.window, partition_ms: partitionMs } },
  };
}
