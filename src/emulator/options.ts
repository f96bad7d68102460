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

export interface FaultOptions {
  /** Share of service requests answered 500/502/503. */
  errorRate?: number;
  /** Share of service requests answered 429 with Retry-After. */
  rateLimitRate?: number;
  retryAfterSeconds?: number;
  /** Share of responses whose connection is reset after part of the body. */
  resetRate?: number;
  /** Share of responses whose body is cut short (valid HTTP, broken JSON). */
  truncateRate?: number;
  /** Share of paging requests whose scroll/point-in-time context is found lost (404). */
  contextLossRate?: number;
  /** Share of service requests whose (otherwise valid) token is treated as revoked (401). */
  tokenRevocationRate?: number;
  /** Added delay per service request, plus up to `jitterMs` more. Real time: keep 0 in tests. */
  latencyMs?: number;
  jitterMs?: number;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /** Operations this client may call; others give 403. Default: all. */
  allowed?: "all" | readonly OperationPath[];
}

/** How unique a record's `_id` is: in the whole service, or within its index only. */
export type RecordIds = "unique" | "per_index";

export interface EmulatorOptions {
  /** Seed of the data and of the fault draws. Default 1. */
  seed?: number;
  /** Mean records per hour per stream (domain × application × app_type), or per kind. Default 60. */
  density?: number | Partial<Record<GeneratedKind, number>>;
  /** Domains the wildcard `*` stands for. Any named domain also has data. */
  domains?: readonly string[];
  /** Serverless scope the wildcard stands for. */
  logGroups?: readonly string[];
  tenants?: readonly string[];
  stages?: readonly string[];
  host?: string;
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** Daily requests per client. Default 100000. */
  quota?: number;
  /** Length of the quota's day in ms, counted from the epoch on the clock; tests shorten it. Default one day. */
  quotaDayMs?: number;
  tokenTtlSeconds?: number;
  batchTokenTtlSeconds?: number;
  /** A scroll or point-in-time context unused this long is gone. Default 300. */
  contextIdleSeconds?: number;
  /** Buckets one aggregation response may hold, as the engine's `search.max_buckets`. Default 65535. */
  maxBuckets?: number;
  /** Told of an internal failure, which clients see only as a bare 500 with a reference. */
  onInternalError?: (error: unknown, reference: string) => void;
  /** v3 query responses larger than this get 413. Default 16 MiB. */
  payloadLimitBytes?: number;
  /** Time slice of one batch partition. Default 3600 (one hour). */
  batchPartitionSeconds?: number;
  /** Status polls before a partition is completed (0: at once). Default 1. */
  batchReadyAfterPolls?: number;
  /** Indexes of workload batch partitions that fail. */
  failingPartitions?: readonly number[];
  partitionFormat?: PartitionFormat;
  /** Lifetime of a download URL's signature. Default 900. */
  downloadUrlTtlSeconds?: number;
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
  /** Serve POST /_emulator/fields and /_emulator/late-records (unauthenticated: local use). Default false. */
  control?: boolean;
  clock?: Clock;
  /**
   * `unique` (default): every record's `_id` is unique in the service. `per_index`: ids are unique
   * within an index only, as a search engine promises, so records of two indices (two days, two app
   * types) share ids.
   */
  recordIds?: RecordIds;
  /**
   * Awkward data the spec allows: exact int64 digits, escaped and lone-surrogate text, deep and empty
   * objects, dates with offsets, repeated keys in `_source` and in the hit, types that conflict across
   * app types. `true` for all of it, or the parts by name. Default: none (the default data).
   */
  awkward?: boolean | AwkwardData;
}

/** The options with their defaults; those given in another shape than the service uses are resolved. */
export interface ResolvedOptions extends Required<
  Omit<
    EmulatorOptions,
    | "density"
    | "clientId"
    | "clientSecret"
    | "faults"
    | "lateRecords"
    | "lostRecords"
    | "indexedUntil"
    | "awkward"
  >
> {
  density: Record<GeneratedKind, number>;
  clients: readonly ClientCredentials[];
  faults: Required<FaultOptions>;
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

const NO_FAULTS: Required<FaultOptions> = {
  errorRate: 0,
  rateLimitRate: 0,
  retryAfterSeconds: 1,
  resetRate: 0,
  truncateRate: 0,
  contextLossRate: 0,
  tokenRevocationRate: 0,
  latencyMs: 0,
  jitterMs: 0,
};

const MAPPINGS_ONLY: readonly OperationPath[] = GENERATED_KINDS.map((kind) => KIND_DATA[kind].mappings);

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const density = options.density ?? 60;
  const perKind = (kind: GeneratedKind) => (typeof density === "number" ? density : (density[kind] ?? 60));
  return {
    seed: options.seed ?? 1,
    density: Object.fromEntries(GENERATED_KINDS.map((kind) => [kind, perKind(kind)])) as Record<
      GeneratedKind,
      number
    >,
    domains: options.domains ?? ["alpha.example", "bravo.example", "charlie.example"],
    logGroups: options.logGroups ?? ["/aws/lambda/orders", "/aws/lambda/billing"],
    tenants: options.tenants ?? ["acme", "globex"],
    stages: options.stages ?? ["prod", "dev"],
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    clients: [
      {
        clientId: options.clientId ?? DEFAULT_CLIENT_ID,
        clientSecret: options.clientSecret ?? DEFAULT_CLIENT_SECRET,
        allowed: "all",
      },
      // A client lacking permissions, for the 403 of an operation outside `allowed`.
      { clientId: LIMITED_CLIENT_ID, clientSecret: LIMITED_CLIENT_SECRET, allowed: MAPPINGS_ONLY },
    ],
    quota: options.quota ?? 100_000,
    quotaDayMs: options.quotaDayMs ?? 86_400_000,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    batchTokenTtlSeconds: options.batchTokenTtlSeconds ?? 7200,
    contextIdleSeconds: options.contextIdleSeconds ?? 300,
    payloadLimitBytes: options.payloadLimitBytes ?? 16 * 1024 * 1024,
    batchPartitionSeconds: options.batchPartitionSeconds ?? 3600,
    batchReadyAfterPolls: options.batchReadyAfterPolls ?? 1,
    failingPartitions: options.failingPartitions ?? [],
    partitionFormat: options.partitionFormat ?? "ndjson-gzip",
    downloadUrlTtlSeconds: options.downloadUrlTtlSeconds ?? 900,
    maxBuckets: options.maxBuckets ?? 65_535,
    onInternalError: options.onInternalError ?? (() => undefined),
    faults: { ...NO_FAULTS, ...options.faults },
    fieldChanges: { ...options.fieldChanges },
    lateRecords: (options.lateRecords ?? []).map(resolveLateRecords),
    lostRecords: (options.lostRecords ?? []).map(resolveLateRecords),
    indexedUntil: resolveIndexedUntil(options.indexedUntil),
    control: options.control ?? false,
    clock: options.clock ?? Date.now,
    recordIds: options.recordIds ?? "unique",
    awkward: resolveAwkward(options.awkward),
  };
}
