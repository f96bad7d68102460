// Rules of `source` that span fields, from the spec's request rules: application and app_type per
// kind and version, scope (domain, or log_group/tenant/stage for serverless logs), the wildcard rule,
// strategies per kind, page sizes, and v1 time ranges. They run offline, before any request.
import type { z } from "zod";
import type { DataKind } from "../api/wire/fields.js";
import { V3_MAX_SIZE } from "../api/wire/common.js";
import type { ApiVersion, AppType, Application, Strategy } from "../kinds/source-spec.js";
import { KINDS } from "../pipeline/registry.js";
import type { QueryFilter } from "./query-filter-schema.js";
import { checkSourceFields } from "./source-field-rules.js";
import { checkStrategy, checkV1Window } from "./source-strategy-rules.js";
import type { Window } from "./window-schema.js";

/** The source as parsed, before normalisation. */
export interface SourceShape {
  kind: DataKind;
  application?: Application | undefined;
  app_type?: AppType | AppType[] | undefined;
  api?: "v1" | "v2" | undefined;
  domain?: string[] | undefined;
  log_group?: string[] | undefined;
  tenant?: string[] | undefined;
  stage?: string[] | undefined;
  window: Window;
  strategy: Strategy;
  page_size?: number | undefined;
  filters?: QueryFilter[] | undefined;
  fields?: string[] | undefined;
  aggs?: Record<string, Record<string, unknown>> | undefined;
  includes_eu?: boolean | undefined;
}

type Ctx = z.RefinementCtx;
const SERVERLESS_SCOPE = ["log_group", "tenant", "stage"] as const;
const SCOPES = ["domain", ...SERVERLESS_SCOPE] as const;

function issue(ctx: Ctx, path: (string | number)[], message: string): void {
  ctx.addIssue({ code: "custom", path, message });
}

export function checkSource(source: SourceShape, ctx: Ctx): void {
  const api = KINDS[source.kind].apiVersion(source.api);
  const appTypes =
    source.app_type === undefined
      ? []
      : typeof source.app_type === "string"
        ? [source.app_type]
        : source.app_type;
  if (source.api !== undefined && source.kind !== "logs") {
    issue(ctx, ["api"], `api applies to logs only (${source.kind} are served by ${api})`);
  }
  checkApplication(source, ctx);
  checkAppTypes(source, appTypes, api, ctx);
  checkScope(source, appTypes, api, ctx);
  checkStrategy(source, api, ctx);
  if (source.page_size !== undefined && api === "v3" && source.page_size > V3_MAX_SIZE) {
    issue(
      ctx,
      ["page_size"],
      `${source.page_size} is above ${V3_MAX_SIZE}, the largest page ${source.kind} queries accept`,
    );
  }
  if (source.includes_eu !== undefined && api !== "v3") {
    issue(ctx, ["includes_eu"], `includes_eu applies to jobs, tickets and metrics only, not ${source.kind}`);
  }
  if (api === "v1") checkV1Window(source, ctx);
  checkSourceFields(source, ctx);
}

function checkApplication(source: SourceShape, ctx: Ctx): void {
  const allowed = KINDS[source.kind].applications;
  if (source.kind === "billing") {
    if (source.application !== undefined)
      issue(ctx, ["application"], "billing takes no application: its query is scoped by domain only");
  } else if (source.application === undefined) {
    issue(ctx, ["application"], `is required for ${source.kind}: one of ${allowed.join(", ")}`);
  } else if (!allowed.includes(source.application)) {
    issue(
      ctx,
      ["application"],
      `"${source.application}" is not offered for ${source.kind}; allowed: ${allowed.join(", ")}`,
    );
  }
}

function checkAppTypes(source: SourceShape, appTypes: AppType[], api: ApiVersion, ctx: Ctx): void {
  const allowed = KINDS[source.kind].appTypes(api);
  if (source.kind === "billing") {
    if (source.app_type !== undefined) issue(ctx, ["app_type"], "billing takes no app_type");
    return;
  }
  if (appTypes.length === 0 && api !== "v1") {
    issue(ctx, ["app_type"], `is required for ${source.kind}: ${allowed.join(" or ")}`);
    return;
  }
  const at = (index: number) => (typeof source.app_type === "string" ? ["app_type"] : ["app_type", index]);
  appTypes.forEach((appType, index) => {
    if (!allowed.includes(appType)) {
      issue(
        ctx,
        at(index),
        `"${appType}" is not an app_type of ${api} ${source.kind}; allowed: ${allowed.join(", ")}`,
      );
    } else if (appTypes.indexOf(appType) !== index) {
      issue(ctx, at(index), `"${appType}" is listed twice`);
    }
  });
  if (source.kind === "logs" && appTypes.includes("serverless") && appTypes.length > 1) {
    issue(
      ctx,
      ["app_type"],
      "serverless logs are scoped by log group, not domain, so serverless cannot be listed with other app_types",
    );
  }
}

function checkScope(source: SourceShape, appTypes: AppType[], api: string, ctx: Ctx): void {
  const isEventOps = source.application === "eventops";
  const serverless = source.kind === "logs" && (api === "v1" ? isEventOps : appTypes.includes("serverless"));
  if (source.kind === "logs" && api === "v2" && appTypes.length > 0) {
    if (serverless && source.application !== undefined && !isEventOps) {
      issue(
        ctx,
        ["application"],
        `serverless logs come from application eventops only, not "${source.application}"`,
      );
    } else if (!serverless && isEventOps) {
      issue(
        ctx,
        ["app_type"],
        "eventops logs are serverless: use app_type serverless with log_group, tenant and stage",
      );
    }
  }
  const required: readonly (typeof SCOPES)[number][] = serverless ? SERVERLESS_SCOPE : ["domain"];
  for (const key of SCOPES) {
    const list = source[key];
    if (required.includes(key) && list === undefined) {
      issue(
        ctx,
        [key],
        serverless
          ? `is required for serverless logs (with ${SERVERLESS_SCOPE.join(", ")})`
          : `is required for ${source.kind}: a list of domains, or ["*"]`,
      );
    } else if (!required.includes(key) && list !== undefined) {
      issue(
        ctx,
        [key],
        serverless
          ? "does not apply to serverless logs, which are scoped by log_group, tenant and stage"
          : `applies to serverless logs only; ${source.kind} are scoped by domain`,
      );
    }
    if (list === undefined) continue;
    if (list.includes("*") && list.length > 1) {
      issue(
        ctx,
        [key, list.indexOf("*")],
        `the wildcard "*" must be the only element of ${key}; remove it or the other names`,
      );
    }
    if (source.kind === "billing" && list.includes("*")) {
      issue(
        ctx,
        [key, list.indexOf("*")],
        "billing is queried once per domain, so it takes domain names, not the wildcard",
      );
    }
    if (api === "v1" && source.kind === "logs" && list.length > 1) {
      issue(ctx, [key], `v1 logs take a single ${key}; use api v2 for several`);
    }
    list.forEach((name, index) => {
      if (list.indexOf(name) !== index) issue(ctx, [key, index], `"${name}" is listed twice`);
    });
  }
}
