// When a refusal is an answer: the reasons the docs give for refusing a generated pipeline. A case the
// docs call valid (any kind and app type with the default naming or snake_case, a plain path, the
// transforms naming fields their stage receives) must export; its refusal is a failure, like a wrong
// view ("a refusal of a default setup counts against it", issue 29).
import type { FuzzCase, SinkCase, TransformCase } from "./fuzz-case.js";
import { applyTransforms, fieldValue, modelRow, projectFields } from "./reference-model.js";
import type { Record_, RunFacts } from "./reference-model.js";

const MINUTES: Readonly<Record<string, number>> = { m: 1, h: 60, d: 1440, w: 10080 };

/** The slice length in minutes, or undefined when the planner chooses it (auto, v1, a window word). */
export function sliceMinutes(fuzzCase: FuzzCase): number | undefined {
  const { window, source } = fuzzCase;
  if (source.api === "v1" || window.word !== undefined || window.slice === "auto") return undefined;
  const match = /^(\d+)([mhdw])$/.exec(window.slice);
  return match === null ? undefined : Number(match[1]) * (MINUTES[match[2] as string] ?? Number.NaN);
}

/** Placeholders of a template that name record fields (`{date}`, `{hour}` and the rest are the run's). */
export function recordPlaceholders(sink: SinkCase): { name: string; placeholder: string }[] {
  return [...(sink.path ?? "").matchAll(/([^/{}=]+)=\{([^}]+)\}/g)]
    .map((match) => ({ name: match[1] ?? "", placeholder: match[2] ?? "" }))
    .filter(({ placeholder }) => placeholder !== "date" && placeholder !== "hour");
}

const isObject = (value: unknown): value is Record_ =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** One record holding every field any record has (the first value met), standing for the stage's columns. */
function mergedRecord(records: readonly Record_[]): Record_ {
  const merge = (into: Record_, from: Record_): void => {
    for (const [key, value] of Object.entries(from)) {
      if (isObject(value)) {
        if (!isObject(into[key])) into[key] = {};
        merge(into[key] as Record_, value);
      } else if (!(key in into)) into[key] = value;
    }
  };
  const out: Record_ = {};
  for (const record of records) merge(out, record);
  return out;
}

/**
 * The run as the stage's columns see it: every slice known, so a field `add` takes from the slice
 * exists at the next stage as its column does, whatever instant the merged record holds.
 */
const STAGE_RUN: RunFacts = { pipelineName: "fuzz-case", sliceOf: () => ({ start: "start", end: "end" }) };

/** Fields a transform reads, and the name it creates (which must not exist yet). */
function namesOf(transform: TransformCase): { reads: string[]; creates: string[] } {
  if ("select" in transform) return { reads: transform.select.fields, creates: [] };
  if ("drop" in transform) return { reads: transform.drop.fields, creates: [] };
  if ("redact" in transform) return { reads: transform.redact.fields, creates: [] };
  if ("rename" in transform)
    return { reads: Object.keys(transform.rename), creates: Object.values(transform.rename) };
  if ("add" in transform) return { reads: [], creates: Object.keys(transform.add) };
  if ("filter" in transform) {
    let condition = transform.filter;
    while ("not" in condition) condition = condition.not;
    return { reads: [condition.field], creates: [] };
  }
  return { reads: [], creates: [] };
}

/**
 * Why the docs would refuse the case, given the records of its window: empty when they call it
 * valid. A reason is given only where a rule of docs/pipelines.md or docs/sinks.md says so.
 */
export function refusalReasons(fuzzCase: FuzzCase, hitRecords: readonly Record_[]): string[] {
  const reasons: string[] = [];
  const minutes = sliceMinutes(fuzzCase);
  for (const sink of fuzzCase.sinks) {
    // A v1 window is one slice, whatever its length: its path cannot hold {date} or {hour} (docs/sinks.md).
    if (fuzzCase.source.api === "v1" && /\{(date|hour)\}/.test(sink.path ?? ""))
      reasons.push("a v1 window is one slice and the path has {date} or {hour}");
    // {hour} and {date} are the slice's start: a slice that crosses an hour or a day puts rows in
    // the partition of another hour or day, so such a slice may be refused with that template.
    if (minutes !== undefined && sink.path?.includes("{hour}") && 60 % minutes !== 0)
      reasons.push(`slice ${fuzzCase.window.slice} crosses hours and the path has {hour}`);
    if (minutes !== undefined && sink.path?.includes("{date}") && 1440 % minutes !== 0)
      reasons.push(`slice ${fuzzCase.window.slice} crosses days and the path has {date}`);
  }
  const needsFields =
    fuzzCase.transforms.length > 0 || fuzzCase.sinks.some((sink) => recordPlaceholders(sink).length > 0);
  if (hitRecords.length === 0) {
    if (needsFields) reasons.push("no record to tell which fields each stage receives");
    return reasons;
  }
  // Every transform must name fields its stage receives, and create none that exists already.
  let record: Record_ | undefined = projectFields(mergedRecord(hitRecords), fuzzCase.source.fields);
  for (const [index, transform] of fuzzCase.transforms.entries()) {
    const { reads, creates } = namesOf(transform);
    for (const name of reads)
      if (fieldValue(record, name) === undefined)
        reasons.push(`transforms[${index}] names ${name}, which its stage does not receive`);
    for (const name of creates)
      if (fieldValue(record, name) !== undefined)
        reasons.push(`transforms[${index}] creates ${name}, which exists already`);
    if ("filter" in transform) continue;
    record = applyTransforms(record, [transform], STAGE_RUN) ?? record;
  }
  // A placeholder must name a column of the rows, under the sink's naming.
  for (const sink of fuzzCase.sinks) {
    const columns = modelRow(record, record, sink.columnNames).columns;
    for (const { placeholder } of recordPlaceholders(sink))
      if (!columns.has(placeholder))
        reasons.push(`{${placeholder}} names no column under ${sink.columnNames} after the transforms`);
  }
  return reasons;
}
