// The emulator's data per kind, one entry for each kind of the wire's DataKind list: how a record is
// generated and which fields the mappings list, and the operations that serve the kind. A new kind adds
// its entry here; the generator, the mappings, the option defaults, the limited client, expectedHits,
// the control interface and the command's flags read it (every generated kind takes the changes to the
// data: the command's --add-field, --late-records … flags and the control interface).
import type { DataKind, FieldSpec } from "../api/wire/fields.js";
import type { OperationPath } from "../api/wire/operations.js";
import type { GeneratedKind } from "./generated-kind.js";
import { billingSummary } from "./records-billing.js";
import type { SummaryInput } from "./records-billing.js";
import { jobSource, ticketSource, workloadSource } from "./records.js";
import type { RecordInput, Source } from "./records.js";
import { logFieldMapped, logSource, metricFieldMapped, metricSource } from "./records-logs.js";

/** A kind whose records are generated per stream and hour. */
interface RecordKindData {
  /** Builds the `_source` of one record from its own random stream. */
  generate(input: RecordInput): Source;
  /** Whether the mappings (of an app type, for kinds mapped per app type) list a field of the kind. */
  mapped(field: FieldSpec, appType: string | undefined): boolean;
  /** The mappings operation (the one the limited demo client may call). */
  mappings: OperationPath;
  /** The paged operation `expectedHits(kind, …)` reads. */
  query: OperationPath;
}

/** A kind answered with one summary per request, counting the records of a generated kind. */
interface SummaryKindData {
  summarize(input: SummaryInput): Source;
  /** The operation that answers with the summary. */
  query: OperationPath;
  /** The generated kind whose records the summary counts; its changes are the summary's. */
  counts: GeneratedKind;
}

type KindData = { readonly [K in DataKind]: K extends GeneratedKind ? RecordKindData : SummaryKindData };

const everywhere = () => true;

export const KIND_DATA: KindData = {
  logs: {
    generate: logSource,
    mapped: logFieldMapped,
    mappings: "/v3/logs/mappings",
    query: "/v2/logs/scroll",
  },
  workloads: {
    generate: workloadSource,
    mapped: everywhere,
    mappings: "/v3/workloads/mappings",
    query: "/v2/workloads/scroll",
  },
  jobs: {
    generate: jobSource,
    mapped: everywhere,
    mappings: "/v3/jobs/mappings",
    query: "/v3/jobs/query",
  },
  tickets: {
    generate: ticketSource,
    mapped: everywhere,
    mappings: "/v3/tickets/mappings",
    query: "/v3/tickets/query",
  },
  metrics: {
    generate: metricSource,
    mapped: metricFieldMapped,
    mappings: "/v3/metrics/mappings",
    query: "/v3/metrics/query",
  },
  // Billing has no records of its own: a domain's summary counts its tickets in the window.
  billing: { summarize: billingSummary, query: "/v1/query", counts: "tickets" },
};

function isGenerated(kind: DataKind): kind is GeneratedKind {
  return "generate" in KIND_DATA[kind];
}

/** Every kind, in the table's order. */
export const DATA_KINDS = Object.keys(KIND_DATA) as DataKind[];

/** The kinds whose records are generated, in the table's order. */
export const GENERATED_KINDS: readonly GeneratedKind[] = DATA_KINDS.filter(isGenerated);
