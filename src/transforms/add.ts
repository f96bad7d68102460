// `add`: sets fields to a constant or to run metadata (export time, slice bounds, pipeline, run id).
import { z } from "zod";
import type { Column, ColumnType, SliceContext, TransformComponent } from "../core/contracts.js";
import { columnsAt } from "./columns.js";
import { fieldPathSchema } from "./field-schema.js";
import { writeField } from "./field-path.js";
import { mapRows } from "./map-rows.js";

/** The run metadata a field can be set from, each read from the slice's context. */
const RUN_METADATA = {
  export_time: (ctx: SliceContext) => ctx.run.startedAt.toISOString(),
  slice_start: (ctx: SliceContext) => ctx.slice.start.toISOString(),
  slice_end: (ctx: SliceContext) => ctx.slice.end.toISOString(),
  pipeline_name: (ctx: SliceContext) => ctx.run.pipelineName,
  run_id: (ctx: SliceContext) => ctx.run.runId,
};
type RunMetadata = keyof typeof RUN_METADATA;

const scalarSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const addValueSchema = z
  .strictObject({
    value: scalarSchema.optional().describe("A constant: string, number, boolean or null."),
    from: z
      .enum(Object.keys(RUN_METADATA) as [RunMetadata, ...RunMetadata[]])
      .optional()
      .describe(
        "Run metadata: export_time (run start), slice_start, slice_end (ISO 8601), pipeline_name, run_id.",
      ),
  })
  .superRefine((spec, ctx) => {
    const given = ["value", "from"].filter((key) => Object.hasOwn(spec, key));
    if (given.length !== 1) {
      ctx.addIssue({ code: "custom", message: "give exactly one of value or from" });
    }
  })
  .describe("What the field is set to: { value: ... } or { from: ... }.");

export const addSchema = z
  .record(fieldPathSchema, addValueSchema)
  .refine((map) => Object.keys(map).length > 0, { message: "names no field to add" })
  .describe(
    "Adds fields: each key is the new field's name, each value { value: constant } or { from: metadata }.",
  );

type AddValue = z.infer<typeof addValueSchema>;

function typeOf(spec: AddValue): ColumnType {
  if (spec.from !== undefined)
    return spec.from.endsWith("_time") || spec.from.startsWith("slice_") ? "timestamp" : "string";
  if (typeof spec.value === "number") return Number.isInteger(spec.value) ? "int64" : "double";
  if (typeof spec.value === "boolean") return "boolean";
  return "string";
}

export const addTransform: TransformComponent<typeof addSchema> = {
  type: "add",
  summary: "Adds constant fields or run metadata.",
  schema: addSchema,
  create: (config) => {
    const entries = Object.entries(config);
    return mapRows((row, ctx) => {
      let out = row;
      for (const [field, spec] of entries) {
        out = writeField(
          out,
          field,
          spec.from !== undefined ? RUN_METADATA[spec.from](ctx) : (spec.value ?? null),
        );
      }
      return out;
    });
  },
  columns: (config, input) => {
    const columns: Column[] = [...input];
    const problems: { path: string; message: string; overwrites?: boolean }[] = [];
    for (const [field, spec] of Object.entries(config)) {
      if (columnsAt(columns, field).length > 0) {
        problems.push({
          path: field,
          message: `field "${field}" already exists; drop or rename it first`,
          overwrites: true,
        });
        continue;
      }
      columns.push({ name: field, type: typeOf(spec) });
    }
    return { columns, problems };
  },
};
