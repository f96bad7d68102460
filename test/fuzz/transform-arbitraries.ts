// The fast-check arbitraries of a case's transforms: every stage of docs/pipelines.md the reference
// model knows, on the fields the kind has (KIND_FACTS), so that most name a field their stage receives.
import fc from "fast-check";
import type { Arbitrary } from "fast-check";
import { KIND_FACTS } from "./fuzz-case.js";
import type { FilterCondition, Kind, TransformCase } from "./fuzz-case.js";

function filterArb(kind: Kind): Arbitrary<FilterCondition> {
  const { filterField: field, values, others } = KIND_FACTS[kind];
  const value = fc.constantFrom(...values);
  const one: Arbitrary<FilterCondition> = fc.oneof(
    value.map((equals) => ({ field, equals })),
    value.map((not_equals) => ({ field, not_equals })),
    fc.subarray([...values], { minLength: 1 }).map((list) => ({ field, in: list })),
    fc.tuple(fc.constantFrom(...others), fc.boolean()).map(([name, exists]) => ({ field: name, exists })),
  );
  return fc.oneof({ weight: 4, arbitrary: one }, { weight: 1, arbitrary: one.map((not) => ({ not })) });
}

export function transformArb(kind: Kind): Arbitrary<TransformCase> {
  const facts = KIND_FACTS[kind];
  const field = fc.constantFrom(...facts.others, ...facts.keywords);
  return fc.oneof(
    fc.constantFrom<"." | "_">(".", "_").map((separator) => ({ flatten: { separator } })),
    fc
      .tuple(field, fc.integer({ min: 1, max: 9 }))
      .map(([from, n]) => ({ rename: { [from]: `renamed_${n}` } })),
    field.map((name) => ({ drop: { fields: [name] } })),
    fc
      .subarray([...facts.keywords, ...facts.others, "@timestamp"], { minLength: 1, maxLength: 4 })
      .map((fields) => ({ select: { fields: ["_id", "_index", ...fields] } })),
    fc
      .constantFrom<string | number | boolean | null>("const", 42, true, null, "ünï")
      .map((value) => ({ add: { added_value: { value } } })),
    fc
      .constantFrom("pipeline_name" as const, "slice_start" as const, "slice_end" as const)
      .map((from) => ({ add: { added_meta: { from } } })),
    fc
      .tuple(fc.constantFrom(...facts.keywords), fc.constantFrom("hash" as const, "mask" as const), fc.nat(4))
      .map(([name, method, keepLast]) => ({
        redact:
          method === "hash" ? { fields: [name], method } : { fields: [name], method, keep_last: keepLast },
      })),
    filterArb(kind).map((filter) => ({ filter })),
  );
}
