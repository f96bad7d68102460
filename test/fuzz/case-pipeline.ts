// What a fuzz case means outside the exporter: the pipeline YAML a user would write for it, the
// emulator it runs against, and the query bodies whose hits are the service's records for its window.
import { join } from "node:path";
import { stringify } from "yaml";
import type { EmulatorOptions } from "../../src/emulator/server.js";
import { EMULATOR_NOW, SERVICE_FROM_ENV } from "../support/cli-harness.js";
import type { FuzzCase, SinkCase } from "./fuzz-case.js";

const DAY_START = Date.parse("2026-03-11T00:00:00Z");

/** The emulator of a case: the export tests' fixed clock, its data profile, no quota in the way. */
export function caseEmulatorOptions(fuzzCase: FuzzCase): EmulatorOptions {
  return {
    seed: 29,
    density: fuzzCase.data.density,
    recordIds: fuzzCase.data.recordIds,
    awkward: fuzzCase.data.awkward,
    batchReadyAfterPolls: 0,
    quota: 1_000_000_000,
    clock: () => EMULATOR_NOW,
  };
}

/** What `add: { from: slice_start | slice_end }` gives a record at `time`: its slice, clipped to the window. */
export function caseSliceOf(
  fuzzCase: FuzzCase,
  minutes: number | undefined,
): (time: number) => { start: string; end: string } | undefined {
  if (minutes === undefined) return () => undefined;
  const window = caseWindow(fuzzCase);
  const [from, to] = [Date.parse(window.start), Date.parse(window.end)];
  const length = minutes * 60_000;
  return (time) => {
    const start = Math.max(from, Math.floor(time / length) * length);
    const end = Math.min(to, Math.floor(time / length) * length + length);
    return { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
  };
}

export interface CaseWindow {
  start: string;
  end: string;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A window word's bounds at the emulator's now (docs/pipelines.md: `now-1d/d`..`now/d` and so on). */
function wordWindow(word: "yesterday" | "today" | "last-hour"): CaseWindow {
  const day = Math.floor(EMULATOR_NOW / DAY) * DAY;
  const hour = Math.floor(EMULATOR_NOW / HOUR) * HOUR;
  const [start, end] =
    word === "yesterday" ? [day - DAY, day] : word === "today" ? [day, EMULATOR_NOW] : [hour - HOUR, hour];
  return { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
}

/** The window of a v2/v3 case as instants; v1 cases resolve `now-<n>h/h` against the emulator's now. */
export function caseWindow(fuzzCase: FuzzCase): CaseWindow {
  if (fuzzCase.source.api !== "v1" && fuzzCase.window.word !== undefined)
    return wordWindow(fuzzCase.window.word);
  if (fuzzCase.source.api === "v1") {
    const hours = 1 + (fuzzCase.window.startMinute % 3);
    const now = EMULATOR_NOW;
    const start = Math.floor(now / 3_600_000) * 3_600_000 - hours * 3_600_000;
    return { start: new Date(start).toISOString(), end: new Date(now).toISOString() };
  }
  const start = DAY_START + fuzzCase.window.startMinute * 60_000;
  const end = start + fuzzCase.window.minutes * 60_000;
  return { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
}

function sinkSection(sink: SinkCase, to: string): Record<string, unknown> {
  const section: Record<string, unknown> = { format: sink.format, to };
  if (sink.gzip) section["gzip"] = true;
  if (sink.path !== undefined) section["path"] = sink.path;
  if (sink.columnNames !== "as_is") section["column_names"] = sink.columnNames;
  if (sink.maxRowsPerFile !== undefined) section["max_rows_per_file"] = sink.maxRowsPerFile;
  return section;
}

/** Where sink `index` (0-based) of a case writes, under the case's folder. */
export function sinkDir(caseDir: string, index: number): string {
  return join(caseDir, `out-${index + 1}`);
}

/** The pipeline a user would write for the case. */
export function casePipelineYaml(fuzzCase: FuzzCase, caseDir: string): string {
  const { source, window } = fuzzCase;
  const section: Record<string, unknown> = { kind: source.kind, application: source.application };
  if (source.api === "v1") section["api"] = "v1";
  if (source.appType !== undefined) section["app_type"] = source.appType;
  Object.assign(section, source.scope);
  if (source.api === "v1") {
    const hours = 1 + (window.startMinute % 3);
    section["window"] = { start: `now-${hours}h/h` };
  } else if (window.word !== undefined) {
    section["window"] = window.word;
  } else {
    const { start, end } = caseWindow(fuzzCase);
    section["window"] = { start, end, slice: window.slice };
  }
  section["strategy"] = source.strategy;
  if (source.filter !== undefined) section["filters"] = [source.filter];
  if (source.fields !== undefined) section["fields"] = source.fields;
  const pipeline: Record<string, unknown> = { name: "fuzz-case", service: SERVICE_FROM_ENV, source: section };
  if (fuzzCase.transforms.length > 0) pipeline["transforms"] = fuzzCase.transforms;
  pipeline["sinks"] = fuzzCase.sinks.map((sink, index) => sinkSection(sink, sinkDir(caseDir, index)));
  pipeline["limits"] = { concurrency: 2 };
  return stringify(pipeline);
}

/** The query target and bodies whose hits, together, are the records the case exports. */
export function caseQueries(fuzzCase: FuzzCase): { target: string; bodies: Record<string, unknown>[] } {
  const { source } = fuzzCase;
  const filters = source.filter === undefined ? {} : { filters: [source.filter] };
  if (source.api === "v1") {
    const hours = 1 + (fuzzCase.window.startMinute % 3);
    const body: Record<string, unknown> = {
      application: source.application,
      time_range: `now-${hours}h/h`,
      domain: source.scope["domain"]?.[0],
    };
    if (source.appType !== undefined) body["app_type"] = source.appType;
    return { target: "/v1/logs/scroll", bodies: [body] };
  }
  const { start, end } = caseWindow(fuzzCase);
  const common = {
    application: source.application,
    start_time: start,
    end_time: end,
    ...source.scope,
    ...filters,
  };
  const appTypes = typeof source.appType === "string" ? [source.appType] : [...(source.appType ?? [])];
  if (source.api === "v3") return { target: source.kind, bodies: [{ ...common, app_type: appTypes }] };
  // v2 kinds export each app type in turn.
  return { target: source.kind, bodies: appTypes.map((appType) => ({ ...common, app_type: appType })) };
}
