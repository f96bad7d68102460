// Rules of a logs `source`: serverless logs are scoped by log_group, tenant and stage instead of
// domain and come from eventops only (eventops logs are always serverless); v1 takes a single scope
// value and a date-math window.
import type { ApiVersion, SourceSection } from "./source-spec.js";
import { checkV1Window } from "./check-v1-window.js";
import type { ReportIssue, SourceScope } from "./data-kind.js";
import { appTypeList } from "./source-spec.js";

const SERVERLESS_SCOPE = ["log_group", "tenant", "stage"] as const;

/** Serverless logs: v1 eventops, or v2 app_type serverless. */
function isServerless(source: SourceSection, api: ApiVersion): boolean {
  return api === "v1"
    ? source.application === "eventops"
    : appTypeList(source.app_type).includes("serverless");
}

export function logsScope(source: SourceSection, api: ApiVersion): SourceScope | undefined {
  if (!isServerless(source, api)) return undefined;
  return {
    keys: SERVERLESS_SCOPE,
    required: `is required for serverless logs (with ${SERVERLESS_SCOPE.join(", ")})`,
    misplaced: "does not apply to serverless logs, which are scoped by log_group, tenant and stage",
  };
}

export function checkLogsSource(source: SourceSection, api: ApiVersion, report: ReportIssue): void {
  const appTypes = appTypeList(source.app_type);
  if (appTypes.includes("serverless") && appTypes.length > 1) {
    report(
      ["app_type"],
      "serverless logs are scoped by log group, not domain, so serverless cannot be listed with other app_types",
    );
  }
  const serverless = isServerless(source, api);
  const isEventOps = source.application === "eventops";
  if (api === "v2" && appTypes.length > 0) {
    if (serverless && source.application !== undefined && !isEventOps) {
      report(
        ["application"],
        `serverless logs come from application eventops only, not "${source.application}"`,
      );
    } else if (!serverless && isEventOps) {
      report(
        ["app_type"],
        "eventops logs are serverless: use app_type serverless with log_group, tenant and stage",
      );
    }
  }
  if (api !== "v1") return;
  for (const key of ["domain", ...SERVERLESS_SCOPE] as const) {
    const list = source[key];
    if (list !== undefined && list.length > 1)
      report([key], `v1 logs take a single ${key}; use api v2 for several`);
  }
  checkV1Window(source, "v1 logs", report);
}
