// The emulator's options, their defaults, and the injectable clock. Every default is documented in
// docs/emulator.md; faults are off unless asked for.
import type { OperationPath } from "../api/wire/operations.js";
import { resolveAwkward } from "./awkward-data.js";
import type { AwkwardData, AwkwardProfile } from "./awkward-data.js";
import type { FieldChanges } from "./field-changes.js";
import type { GeneratedKind } from "./generated-kind.js";
import { GENERATED_KINDS, KIND_DATA } from "./kind-data.js";
import { resolveIndexedUntil, resolveLateRecords } from "./late-records.js";
import type { LateRange, LateRecords } from "./late-records.js";

/** Milliseconds since the epoch; tests inject their own to move time without sleeping. */
export type Clock = () => number;

export type PartitionFormat = "ndjson" | "ndjson-gzip" | "json-array";

/** How unique a record's `_id` is: in the whole service, or within its index only. */
export type RecordIds = "unique" | "per_index";

const NO_FAULTS = {
  /** Share of service requests answered 500/502/503. */
  errorRate: 0,
  /** Share of service requests answered 429 with Retry-After. */
  rateLimitRate: 0,
  retryAfterSeconds: 1,
  /** Share of responses whose connection is reset after part of the body. */
  resetRate: 0,
  /** Share of responses whose body is cut short (valid HTTP, broken JSON). */
  truncateRate: 0,
  /** Share of paging requests whose scroll/point-in-time context is found lost (404). */
  contextLossRate: 0,
  /** Share of service requests whose (otherwise valid) token is treated as revoked (401). */
  tokenRevocationRate: 0,
  /** Added delay per service request, plus up to `jitterMs` more. Real time: keep 0 in tests. */
  latencyMs: 0,
  jitterMs: 0,
};

export type FaultOptions = Partial<typeof NO_FAULTS>;

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /** Operations this client may call; others give 403. */
  allowed: "all" | readonly OperationPath[];
}

/** The options the service uses as they are given, with their defaults. */
const DEFAULTS = {
  /** Seed of the data and of the fault draws. */
  seed: 1,
  /** Domains the wildcard `*` stands for. Any named domain also has data. */
  domains: ["alpha.example", "bravo.example", "charlie.example"] as readonly string[],
  /** Serverless scope the wildcard stands for. */
  logGroups: ["/aws/lambda/orders", "/aws/lambda/billing"] as readonly string[],
  tenants: ["acme", "globex"] as readonly string[],
  stages: ["prod", "dev"] as readonly string[],
  host: "127.0.0.1",
  port: 0,
  /** Daily requests per client. */
  quota: 100_000,
  /** Length of the quota's day in ms, counted from the epoch on the clock; tests shorten it. */
  quotaDayMs: 86_400_000,
  tokenTtlSeconds: 3600,
  batchTokenTtlSeconds: 7200,
  /** A scroll or point-in-time context unused this long is gone. */
  contextIdleSeconds: 300,
  /** v3 query responses larger than this get 413. */
  payloadLimitBytes: 16 * 1024 * 1024,
  /** Time slice of one batch partition. */
  batchPartitionSeconds: 3600,
  /** Status polls before a partition is completed (0: at once). */
  batchReadyAfterPolls: 1,
  /** Indexes of workload batch partitions that fail. */
  failingPartitions: [] as readonly number[],
  partitionFormat: "ndjson-gzip" as PartitionFormat,
  /** Lifetime of a download URL's signature. */
  downloadUrlTtlSeconds: 900,
  /** Buckets one aggregation response may hold, as the engine's `search.max_buckets`. */
  maxBuckets: 65_535,
  /** Told of an internal failure, which clients see only as a bare 500 with a reference. */
  onInternalError: (() => undefined) as (error: unknown, reference: string) => void,
  /** Serve POST /_emulator/fields and /_emulator/late-records (unauthenticated: local use). */
  control: false,
  clock: Date.now as Clock,
  /**
   * `unique`: every record's `_id` is unique in the service. `per_index`: ids are unique within an
   * index only, as a search engine promises, so records of two indices (two days, two app types)
   * share ids.
   */
  recordIds: "unique" as RecordIds,
};

type Defaults = typeof DEFAULTS;

export interface EmulatorOptions extends Partial<Defaults> {
  /** Mean records per hour per stream (domain × application × app_type), or per kind. Default 60. */
  density?: number | Partial<Record<GeneratedKind, number>>;
  clientId?: string;
  clientSecret?: string;
  faults?: FaultOptions;
  /** Fields added, removed or retyped per kind, in the mappings and in every record. Default none. */
  fieldChanges?: Partial<Record<GeneratedKind, FieldChanges>>;
  /** Extra records in the hours of time ranges (data ingested late). Default none. */
  lateRecords?: readonly LateRecords[];
  /**
   * Records gone from the hours of time ranges (retention expired, a shard missing): `count` fewer
   * per stream and hour, never below none. Default none.
   */
  lostRecords?: readonly LateRecords[];
  /**
   * Records at or after this instant (ISO 8601 or ms) are not searchable yet, as if the service were
   * still indexing them: every operation leaves them out until it moves. Default: all are.
   */
  indexedUntil?: string | number | undefined;
  /**
   * Awkward data the spec allows: exact int64 digits, escaped and lone-surrogate text, deep and empty
   * objects, dates with offsets, repeated keys in `_source` and in the hit, types that conflict across
   * app types. `true` for all of it, or the parts by name. Default: none (the default data).
   */
  awkward?: boolean | AwkwardData;
}

/** The options with their defaults; those given in another shape than the service uses are resolved. */
export interface ResolvedOptions extends Defaults {
  density: Record<GeneratedKind, number>;
  clients: readonly ClientCredentials[];
  faults: typeof NO_FAULTS;
  /** Changed at run time by `changeFields` (and the control interface). */
  fieldChanges: Partial<Record<GeneratedKind, FieldChanges>>;
  /** Grown at run time by `addLateRecords` (and the control interface). */
  lateRecords: LateRange[];
  /** Grown at run time by `loseRecords` (and the control interface). */
  lostRecords: LateRange[];
  /** Moved at run time by `setIndexedUntil` (and the control interface); undefined: everything. */
  indexedUntil: number | undefined;
  awkward: AwkwardProfile;
}

const DEFAULT_CLIENT_ID = "mdq-demo";
export const DEFAULT_CLIENT_SECRET = "mdq-demo-secret";
export const LIMITED_CLIENT_ID = "mdq-limited";
export const LIMITED_CLIENT_SECRET = "mdq-limited-secret";

const MAPPINGS_ONLY: readonly OperationPath[] = GENERATED_KINDS.map((kind) => KIND_DATA[kind].mappings);

/** The entries that are not undefined: an option given as undefined takes its default. */
function given<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const { density = 60, clientId, clientSecret, faults, fieldChanges, ...plain } = options;
  const perKind = (kind: GeneratedKind) => (typeof density === "number" ? density : (density[kind] ?? 60));
  return {
    ...DEFAULTS,
    ...given(plain),
    density: Object.fromEntries(GENERATED_KINDS.map((kind) => [kind, perKind(kind)])) as Record<
      GeneratedKind,
      number
    >,
    clients: [
      {
        clientId: clientId ?? DEFAULT_CLIENT_ID,
        clientSecret: clientSecret ?? DEFAULT_CLIENT_SECRET,
        allowed: "all",
      },
      // A client lacking permissions, for the 403 of an operation outside `allowed`.
      { clientId: LIMITED_CLIENT_ID, clientSecret: LIMITED_CLIENT_SECRET, allowed: MAPPINGS_ONLY },
    ],
    faults: { ...NO_FAULTS, ...faults },
    fieldChanges: { ...fieldChanges },
    lateRecords: (options.lateRecords ?? []).map(resolveLateRecords),
    lostRecords: (options.lostRecords ?? []).map(resolveLateRecords),
    indexedUntil: resolveIndexedUntil(options.indexedUntil),
    awkward: resolveAwkward(options.awkward),
  };
}
