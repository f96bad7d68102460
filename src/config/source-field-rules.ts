// Field-name rules of `source`: `fields`, filter fields and aggregation fields must be fields the
// kind has (from the spec's table), with close matches offered for misspellings.
import type { z } from "zod";
import { didYouMean } from "../core/close-matches.js";
import { tableMappings } from "../kinds/hit-columns.js";
import type { DataKindComponent } from "../kinds/data-kind.js";
import { filterFields } from "./query-filter-schema.js";
import type { SourceSection } from "../kinds/source-spec.js";

export function checkSourceFields(
  source: SourceSection,
  kind: DataKindComponent,
  ctx: z.RefinementCtx,
): void {
  // Names usable in fields, filters and aggs: every field plus its multi-field companions.
  const known = tableMappings(kind.fields).map((field) => field.name);
  const check = (field: string, path: (string | number)[], where: string) => {
    if (field === "_id" || field === "_index" || known.includes(field)) return;
    ctx.addIssue({
      code: "custom",
      path,
      message: `${source.kind} have no field "${field}" (${where})${didYouMean(field, known)}`,
    });
  };
  source.fields?.forEach((field, index) => {
    check(field, ["fields", index], "in fields");
    if (source.fields?.indexOf(field) !== index) {
      ctx.addIssue({ code: "custom", path: ["fields", index], message: `"${field}" is listed twice` });
    }
  });
  if (source.fields !== undefined && source.strategy === "aggs") {
    ctx.addIssue({
      code: "custom",
      path: ["fields"],
      message: "fields does not apply to aggregation exports (rows are buckets)",
    });
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
