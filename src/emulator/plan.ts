// Turns a validated request body into a query plan: which streams (kind × application × app_type ×
// scope), which window, the filter predicate, the projection and the page size.
import type { DslQuery } from "../api/wire/query-dsl.js";
import type { OperationPath } from "../api/wire/operations.js";
import type { GeneratedKind } from "./generated-kind.js";
import { DATA_KINDS, KIND_DATA } from "./kind-data.js";
import type { RecordIds, ResolvedOptions } from "./options.js";
import { compileFilters } from "./query-dsl.js";
import type { Predicate } from "./query-dsl.js";
import { compileProjection } from "./projection.js";
import type { Projection } from "./projection.js";
import { createStreams } from "./streams.js";
import type { Stream } from "./streams.js";
import { HOUR_MS } from "./generator.js";
import { resolveDateMath } from "../core/date-math.js";
import type { FieldChanges } from "./field-changes.js";
import type { LateRange } from "./late-records.js";
import type { AwkwardProfile } from "./awkward-data.js";

export type Body = Record<string, unknown>;

export interface QueryPlan {
  kind: GeneratedKind;
  /** v3 hits carry `sort` and a null `_score`; v1/v2 hits a numeric `_score`. */
  hitStyle: "v2" | "v3";
  streams: readonly Stream[];
  startMs: number;
  endMs: number;
  firstHour: number;
  /** Hour buckets the window touches. */
  hours: number;
  density: number;
  /** The kind's field changes, applied to every record before the filter sees it. */
  fieldChanges: FieldChanges | undefined;
  /** How unique record ids are (see EmulatorOptions.recordIds). */
  recordIds: RecordIds;
  /** Late records of the kind, added to the hour buckets they fall in. */
  late: readonly LateRange[];
  /** Lost records of the kind, taken from the hour buckets they fall in. */
  lost: readonly LateRange[];
  /** The awkward data the records carry (none by default). */
  awkward: AwkwardProfile;
  filter: Predicate | undefined;
  projection: Projection | undefined;
  size: number;
}

function list(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string") return [value];
  return undefined;
}

/** A scope list, with the wildcard (or nothing) standing for the configured names. */
function expand(value: unknown, all: readonly string[]): string[] {
  const names = list(value);
  if (!names || names.length === 0 || names.includes("*")) return [...all];
  return [...new Set(names)];
}

/** The kind whose records an operation reads: a summary's operation reads the kind it counts. */
function kindOf(path: OperationPath): GeneratedKind {
  for (const kind of DATA_KINDS) {
    const data = KIND_DATA[kind];
    if ("counts" in data && data.query === path) return data.counts;
  }
  return path.split("/")[2] as GeneratedKind;
}

/** The app types a v1 `app_type` reads; none named reads both. */
const V1_APP_TYPES = new Map<unknown, string[]>([
  ["ec2", ["ec2"]],
  ["caas", ["kubernetes"]],
]);

/** v1 `filters` (field → value or values) as the query DSL's term and terms. */
function v1Filters(filters: unknown): DslQuery[] {
  if (!filters || typeof filters !== "object") return [];
  const scalar = (v: unknown) => (typeof v === "number" || typeof v === "boolean" ? v : String(v));
  return Object.entries(filters).map(([field, value]) =>
    Array.isArray(value) ? { terms: { [field]: value.map(scalar) } } : { term: { [field]: scalar(value) } },
  );
}

/** The v1 `time_range` window: from its date-math start (`now-<n><unit>/<unit>`, which the wire schema checked) to now. */
export function timeRangeWindow(expression: string, now: number): { startMs: number; endMs: number } {
  const start = resolveDateMath(expression, new Date(now));
  return { startMs: start.ok ? start.date.getTime() : now, endMs: now };
}

/** A plan's window [startMs, endMs) and the hour buckets it touches. */
export function planWindow(
  startMs: number,
  endMs: number,
): Pick<QueryPlan, "startMs" | "endMs" | "firstHour" | "hours"> {
  const firstHour = Math.floor(startMs / HOUR_MS);
  return { startMs, endMs, firstHour, hours: Math.max(0, Math.ceil(endMs / HOUR_MS) - firstHour) };
}

export function planQuery(path: OperationPath, body: Body, options: ResolvedOptions): QueryPlan {
  const kind = kindOf(path);
  const now = options.clock();
  const version = path.slice(1, 3);
  const application = String(body["application"] ?? "atr");
  let appTypes: string[];
  let scopes: string[][];
  let startMs: number;
  let endMs: number;
  let filters: DslQuery[] | undefined;
  if (version === "v1") {
    ({ startMs, endMs } = timeRangeWindow(String(body["time_range"]), now));
    const named = V1_APP_TYPES.get(body["app_type"]);
    appTypes = application === "eventops" ? ["serverless"] : (named ?? ["ec2", "kubernetes"]);
    filters = v1Filters(body["filters"]);
  } else {
    startMs = Date.parse(String(body["start_time"]));
    endMs = Date.parse(String(body["end_time"]));
    appTypes = list(body["app_type"]) ?? ["ec2", "kubernetes"];
    filters = body["filters"] as DslQuery[] | undefined;
  }
  if (appTypes.includes("serverless")) {
    const groups = expand(body["log_group"], options.logGroups);
    const tenants = expand(body["tenant"], options.tenants);
    const stages = expand(body["stage"], options.stages);
    scopes = groups.flatMap((g) => tenants.flatMap((t) => stages.map((s) => [g, t, s])));
  } else {
    scopes = expand(body["domain"], options.domains).map((domain) => [domain]);
  }
  // Records the service has not indexed yet are left out by every operation.
  if (options.indexedUntil !== undefined) endMs = Math.max(startMs, Math.min(endMs, options.indexedUntil));
  return {
    kind,
    hitStyle: version === "v3" ? "v3" : "v2",
    streams: createStreams(options.seed, kind, [application], [...new Set(appTypes)], scopes),
    ...planWindow(startMs, endMs),
    density: options.density[kind],
    fieldChanges: options.fieldChanges[kind],
    recordIds: options.recordIds,
    late: options.lateRecords.filter((range) => range.kind === kind),
    lost: options.lostRecords.filter((range) => range.kind === kind),
    awkward: options.awkward,
    filter: compileFilters(filters, now),
    projection: compileProjection(body["fields"] as string[] | undefined),
    size: typeof body["size"] === "number" ? body["size"] : 100,
  };
}
