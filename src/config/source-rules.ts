// Rules of `source` that span fields, from the spec's request rules: application and app_type per
// kind and version, scope (domains, or what the kind scopes by instead), the wildcard rule,
// strategies per kind (aggregations only with strategy aggs) and page sizes, the fields named in
// `fields`, filters and aggregations (fields the kind has, from the spec's table, with close matches
// for misspellings), then the kind's own rules. They run offline, before any request.
import type { z } from "zod";
import type { DataKind } from "../api/wire/fields.js";
import { V3_MAX_SIZE } from "../api/wire/common.js";
import type { DataKindComponent, SourceScope } from "../kinds/data-kind.js";
import { appTypeList } from "../kinds/source-spec.js";
import type { ApiVersion, AppType, SourceSection } from "../kinds/source-spec.js";
import type { KindTable } from "../components/registry.js";
import { didYouMean } from "../core/close-matches.js";
import { tableMappings } from "../kinds/hit-columns.js";
import { filterFields } from "./query-filter-schema.js";

type Ctx = z.RefinementCtx;
const SCOPES = ["domain", "log_group", "tenant", "stage"] as const;
/** The kinds that take `api` (one whose version does not depend on it takes none). */
const apiKinds = (kinds: KindTable): DataKind[] =>
  (Object.keys(kinds) as DataKind[]).filter(
    (kind) => kinds[kind].apiVersion("v1") !== kinds[kind].apiVersion("v2"),
  );

function issue(ctx: Ctx, path: (string | number)[], message: string): void {
  ctx.addIssue({ code: "custom", path, message });
}

/** A name given twice in a list is refused at its second place. */
function checkListedOnce(list: readonly string[] | undefined, key: string, ctx: Ctx): void {
  list?.forEach((name, index) => {
    if (list.indexOf(name) !== index) issue(ctx, [key, index], `"${name}" is listed twice`);
  });
}

/** The rules of `source` with the environment's data kinds. */
export function checkSource(source: SourceSection, ctx: Ctx, kinds: KindTable): void {
  const kind = kinds[source.kind];
  const api = kind.apiVersion(source.api);
  const appTypes = appTypeList(source.app_type);
  const takingApi = apiKinds(kinds);
  if (source.api !== undefined && !takingApi.includes(source.kind)) {
    issue(ctx, ["api"], `api applies to ${takingApi.join(", ")} only (${source.kind} are served by ${api})`);
  }
  checkApplication(source, kind, ctx);
  checkAppTypes(source, kind, appTypes, api, ctx);
  checkScope(source, kind, api, ctx);
  checkStrategy(source, kind, api, ctx);
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
  if (kind.selectsFields !== false) checkSourceFields(source, kind, ctx);
  kind.checkSource?.(source, api, (path, message) => issue(ctx, path, message));
}

function checkApplication(source: SourceSection, kind: DataKindComponent, ctx: Ctx): void {
  const allowed = kind.applications;
  // A kind without applications says what it takes instead (its checkSource).
  if (allowed.length === 0) return;
  if (source.application === undefined) {
    issue(ctx, ["application"], `is required for ${source.kind}: one of ${allowed.join(", ")}`);
  } else if (!allowed.includes(source.application)) {
    issue(
      ctx,
      ["application"],
      `"${source.application}" is not offered for ${source.kind}; allowed: ${allowed.join(", ")}`,
    );
  }
}

function checkAppTypes(
  source: SourceSection,
  kind: DataKindComponent,
  appTypes: AppType[],
  api: ApiVersion,
  ctx: Ctx,
): void {
  const allowed = kind.appTypes(api);
  if (allowed.length === 0) return;
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
}

function checkScope(source: SourceSection, kind: DataKindComponent, api: ApiVersion, ctx: Ctx): void {
  const scope: SourceScope = kind.scope?.(source, api) ?? {
    keys: ["domain"],
    required: `is required for ${source.kind}: a list of domains, or ["*"]`,
    misplaced: `applies to serverless logs only; ${source.kind} are scoped by domain`,
  };
  for (const key of SCOPES) {
    const list = source[key];
    if (scope.keys.includes(key) && list === undefined) issue(ctx, [key], scope.required);
    else if (!scope.keys.includes(key) && list !== undefined) issue(ctx, [key], scope.misplaced);
    if (list === undefined) continue;
    if (list.includes("*") && list.length > 1) {
      issue(
        ctx,
        [key, list.indexOf("*")],
        `the wildcard "*" must be the only element of ${key}; remove it or the other names`,
      );
    }
    checkListedOnce(list, key, ctx);
  }
}

function checkStrategy(source: SourceSection, kind: DataKindComponent, api: ApiVersion, ctx: Ctx): void {
  const offered = kind.strategies(api);
  if (!offered.includes(source.strategy)) {
    issue(
      ctx,
      ["strategy"],
      `"${source.strategy}" is not offered for ${api} ${source.kind}; allowed: ${offered.join(", ")}`,
    );
  }
  if (source.strategy === "aggs" && source.aggs === undefined) {
    issue(ctx, ["aggs"], "is required with strategy aggs: at least one aggregation");
  } else if (source.aggs !== undefined && source.strategy !== "aggs") {
    issue(ctx, ["aggs"], "applies only with strategy: aggs");
  }
  if (source.aggs !== undefined && Object.keys(source.aggs).length === 0) {
    issue(ctx, ["aggs"], "must contain at least one aggregation");
  }
}

function checkSourceFields(source: SourceSection, kind: DataKindComponent, ctx: Ctx): void {
  // Names usable in fields, filters and aggs: every field plus its multi-field companions.
  const known = tableMappings(kind.fields).map((field) => field.name);
  const check = (field: string, path: (string | number)[], where: string) => {
    if (field === "_id" || field === "_index" || known.includes(field)) return;
    issue(ctx, path, `${source.kind} have no field "${field}" (${where})${didYouMean(field, known)}`);
  };
  source.fields?.forEach((field, index) => check(field, ["fields", index], "in fields"));
  checkListedOnce(source.fields, "fields", ctx);
  if (source.fields !== undefined && source.strategy === "aggs") {
    issue(ctx, ["fields"], "fields does not apply to aggregation exports (rows are buckets)");
  }
  source.filters?.forEach((filter, index) => {
    for (const found of filterFields(filter, ["filters", index]))
      check(found.field, found.path, "in filters");
  });
  if (source.aggs !== undefined) {
    for (const found of aggregationFields(source.aggs, ["aggs"])) check(found.field, found.path, "in aggs");
  }
}

/** Every `field: name` inside an aggregation definition, at any depth. */
function aggregationFields(
  value: unknown,
  path: (string | number)[],
): { field: string; path: (string | number)[] }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => aggregationFields(item, [...path, index]));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === "field" && typeof inner === "string"
      ? [{ field: inner, path: [...path, key] }]
      : aggregationFields(inner, [...path, key]),
  );
}
