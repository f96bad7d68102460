// Records ingested late: extra records in the hours of a time range, as if the service received them
// after a client had already exported that range; records lost (fewer in those hours); and the
// indexing horizon, past which records are not searchable yet. Counts, histograms, pages and batch
// exports all follow each change from the moment it is made.
import { z } from "zod";
import type { GeneratedKind } from "./generated-kind.js";
import { HOUR_MS } from "./generator.js";
import { GENERATED_KINDS } from "./kind-data.js";

/** A range of late (or lost) records, as options give it and as the control interface reads it. */
export const lateRecordsSchema = z.strictObject({
  kind: z.enum(GENERATED_KINDS as [GeneratedKind, ...GeneratedKind[]]),
  /** ISO 8601 or milliseconds; the hours this range touches get the records. */
  start: z.union([z.string(), z.number()]),
  end: z.union([z.string(), z.number()]),
  /** Extra records per stream (domain × application × app_type) and hour. */
  count: z.number().int().min(1),
});

export type LateRecords = z.infer<typeof lateRecordsSchema>;

/** A late-record range with its bounds in milliseconds. */
export type LateRange = Omit<LateRecords, "start" | "end"> & { startMs: number; endMs: number };

function instant(value: string | number, name: string): number {
  const ms = typeof value === "number" ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new Error(`${name} "${String(value)}" is not a time`);
  return ms;
}

/** Checks one range; throws naming the value and what is allowed. */
export function resolveLateRecords(late: LateRecords): LateRange {
  const startMs = instant(late.start, "late records: start");
  const endMs = instant(late.end, "late records: end");
  if (endMs <= startMs)
    throw new Error(`late records: end "${String(late.end)}" is not after start "${String(late.start)}"`);
  if (!Number.isInteger(late.count) || late.count < 1)
    throw new Error(`late records: count ${String(late.count)} is not a whole number of at least 1`);
  return { kind: late.kind, startMs, endMs, count: late.count };
}

/**
 * Extra records of a kind in one hour bucket. The bucket's records stay evenly spread over the hour,
 * so the hour's late and earlier records interleave in time (their ids are the bucket's positions).
 */
export function lateCount(ranges: readonly LateRange[], kind: GeneratedKind, hour: number): number {
  const from = hour * HOUR_MS;
  const to = from + HOUR_MS;
  let extra = 0;
  for (const range of ranges)
    if (range.kind === kind && range.startMs < to && range.endMs > from) extra += range.count;
  return extra;
}

/** The indexing horizon in milliseconds; throws naming the value when it is not a time. */
export function resolveIndexedUntil(value: string | number | undefined): number | undefined {
  return value === undefined ? undefined : instant(value, "indexed until");
}
