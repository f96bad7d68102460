// Billing: the v1 billing summary, one query and one row per domain over a date-math window. It has no
// mappings operation; its fields come from the spec's table.
import type { ServiceClient } from "../api/client.js";
import { BILLING_FIELDS } from "../api/wire/fields.js";
import type { FieldSpec } from "../api/wire/fields.js";
import type { RecordBatch, Source } from "../core/contracts.js";
import type { SourceSection, SourceSpec } from "./source-spec.js";
import { checkV1Window } from "./check-v1-window.js";
import type { DataKindComponent, ReportIssue } from "./data-kind.js";
import { tableMappings } from "./hit-columns.js";

/**
 * The summary's fields: the spec's table, then the window the summary covers, which the service sends
 * beside them (the emulator does); a record field without a column would be lost in Parquet.
 */
const SUMMARY_FIELDS: readonly FieldSpec[] = [
  ...BILLING_FIELDS,
  { name: "window_start", type: "date" },
  { name: "window_end", type: "date" },
];

function createBillingSource(source: SourceSpec, client: ServiceClient): Source {
  return async function* (ctx): AsyncGenerator<RecordBatch> {
    const domains = source.domain ?? [];
    for (const domain of domains) {
      const body = { domain, time_range: source.window.expression.start };
      const response = await client.call("/v1/query", body, { signal: ctx.signal });
      yield { kind: "rows", rows: [{ ...response.summary }] };
    }
    ctx.stats.expected = domains.length;
  };
}

/** Billing is one summary per named domain over a date-math window: it takes nothing else. */
function checkBillingSource(source: SourceSection, report: ReportIssue): void {
  if (source.application !== undefined)
    report(["application"], "billing takes no application: its query is scoped by domain only");
  if (source.app_type !== undefined) report(["app_type"], "billing takes no app_type");
  for (const key of ["domain", "log_group", "tenant", "stage"] as const) {
    const list = source[key];
    if (list?.includes("*") === true) {
      report(
        [key, list.indexOf("*")],
        "billing is queried once per domain, so it takes domain names, not the wildcard",
      );
    }
  }
  for (const key of ["filters", "fields", "page_size"] as const) {
    if (source[key] !== undefined) report([key], `billing takes no ${key}: it is one summary per domain`);
  }
  checkV1Window(source, "billing (v1)", report);
}

export const billingKind: DataKindComponent = {
  type: "billing",
  summary: "Billing summary (v1; one row per domain).",
  apiVersion: () => "v1",
  applications: [],
  appTypes: () => [],
  strategies: () => ["auto"],
  pagingLimit: Number.POSITIVE_INFINITY,
  fields: SUMMARY_FIELDS,
  paging: "billing",
  sources: () => ({ billing: (source, { client }) => createBillingSource(source, client) }),
  // No mappings operation: the table is the schema, in its own order.
  mappings: () => Promise.resolve(tableMappings(SUMMARY_FIELDS)),
  columns: (mapped) => [...mapped],
  selectsFields: false,
  checkSource: (source, _api, report) => checkBillingSource(source, report),
};
