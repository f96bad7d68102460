// The config section of one sink: a format, a destination and how files are named and rolled, as the
// YAML says them. The formats and destinations of the environment add their options: a format's beside
// `format`, a destination's under its own key (the destination's type). (A sink's "schema" is its
// output columns, resolved in warehouse/sink-schema.ts; this is its configuration.)
import { z } from "zod";
import type { Format } from "../formats/format.js";
import type { Destination } from "./destination.js";
import { compilePathTemplate } from "./path-template.js";
import { pickDestination } from "./pick-destination.js";
import {
  columnNameOverridesSchema,
  columnNamesSchema,
  overrideProblems,
  schemaPolicySchema,
} from "./warehouse-options.js";
import type { ColumnNaming, SchemaPolicyConfig } from "./warehouse-options.js";
import { wholeNumber } from "../core/whole-number.js";

/** The formats and destinations a sink may name, by `format` value and by type. */
interface SinkComponents {
  readonly formats: Readonly<Record<string, Format>>;
  readonly destinations: Readonly<Record<string, Destination>>;
}

const commonFields = (formats: readonly Format[], destinations: readonly Destination[]) => ({
  format: z
    .enum(formats.map((format) => format.type))
    .describe(
      `How rows become bytes. ${formats.map((format) => `\`${format.type}\`: ${format.summary}`).join(" ")}`,
    ),
  to: z
    .string()
    .min(1)
    .describe(
      `Where files go; its form picks the destination. ${destinations.map((destination) => `${destination.example}: ${destination.summary}`).join(" ")}`,
    ),
  path: z
    .string()
    .optional()
    .describe(
      "File name template relative to `to`: {date} {hour} (slice start, UTC; a fixed slice must divide the smallest of them) {slice} {seq} {ext} {run_id} and {column} from each row's value of an output column, named as the files name it (after column_names: {ticket_type} under snake_case), as Hive-style partitions, escaped so they stay inside `to`. Must contain {slice}, and {seq} when files roll. Default: {slice}-{seq}.{ext}",
    ),
});

const rollingFields = {
  max_rows_per_file: wholeNumber(1).optional().describe("Start a new file after this many rows."),
  max_file_bytes: wholeNumber(1024).optional().describe("Start a new file once this many bytes are written."),
};

/** The warehouse contract: column names and the pinned schema's drift policy (docs/warehouse.md). */
const warehouseFields = {
  column_names: columnNamesSchema,
  column_name_overrides: columnNameOverridesSchema,
  schema: schemaPolicySchema.prefault({}),
};

/** Every format's options, flat on the sink; two formats may not claim one name. */
function formatFields(components: SinkComponents): Record<string, z.ZodType> {
  const fields: Record<string, z.ZodType> = {};
  for (const format of Object.values(components.formats)) {
    for (const [key, schema] of Object.entries(format.options)) {
      if (
        key in fields ||
        ["format", "to", "path"].includes(key) ||
        key in rollingFields ||
        key in warehouseFields ||
        key in components.destinations
      ) {
        throw new Error(
          `format ${format.type} declares option ${key}, which another part of the sink already has`,
        );
      }
      fields[key] = schema;
    }
  }
  return fields;
}

/** A parsed sink: the common fields typed, format and destination options by their YAML keys. */
export interface SinkConfig {
  /** The `type` of one of the environment's formats. */
  readonly format: string;
  readonly to: string;
  readonly path?: string | undefined;
  readonly max_rows_per_file?: number | undefined;
  readonly max_file_bytes?: number | undefined;
  readonly column_names: ColumnNaming;
  readonly column_name_overrides?: Readonly<Record<string, string>> | undefined;
  readonly schema: SchemaPolicyConfig;
  readonly [option: string]: unknown;
}

/**
 * The config schema of a sink section with these formats and destinations (an environment's; config/ builds it once
 * per environment).
 * @example createSinkConfigSchema(components).parse({ format: "ndjson", to: "./out" })
 */
export function createSinkConfigSchema(
  components: SinkComponents,
): z.ZodType<SinkConfig, Record<string, unknown>> {
  const formats: readonly Format[] = Object.values(components.formats);
  const destinations: readonly Destination[] = Object.values(components.destinations);
  return z
    .strictObject({
      ...commonFields(formats, destinations),
      ...formatFields(components),
      ...rollingFields,
      ...warehouseFields,
      ...Object.fromEntries(
        destinations.flatMap(({ type, options }) =>
          options === undefined ? [] : [[type, options.optional()]],
        ),
      ),
    })
    .superRefine((parsed, ctx) => checkSink(parsed, formats, destinations, ctx))
    .describe("One output: format, destination, names and rolling.");
}

/** Reports `message` at `path` in the sink's section. */
function issue(ctx: z.RefinementCtx, message: string, ...path: string[]): void {
  ctx.addIssue({ code: "custom", path, message });
}

function checkSink(
  value: SinkConfig,
  formats: readonly Format[],
  destinations: readonly Destination[],
  ctx: z.RefinementCtx,
): void {
  const format = formats.find((candidate) => candidate.type === value.format);
  if (format === undefined) return;
  checkFormatOptions(value, format, formats, ctx);
  for (const problem of overrideProblems(value))
    issue(ctx, problem.message, "column_name_overrides", problem.field);
  const choice = pickDestination(value.to, destinations);
  if ("problem" in choice) {
    issue(ctx, choice.problem, "to");
    return;
  }
  const { destination } = choice;
  const targetProblem = destination.checkTarget?.(value.to);
  if (targetProblem !== undefined) issue(ctx, targetProblem, "to");
  if (destination.stream === true && !format.streams) {
    const streaming = formats.filter((candidate) => candidate.streams).map((candidate) => candidate.type);
    issue(ctx, `${destination.type} (to: ${value.to}) takes format ${streaming.join(" or ")} only`, "format");
  }
  for (const other of destinations) {
    if (other !== destination && other.options !== undefined && value[other.type] !== undefined) {
      issue(ctx, `${other.type} options need a destination ${other.example}`, other.type);
    }
  }
  if (value.path !== undefined) checkPathTemplate(value, destination, ctx);
}

/** Another format's option set to other than its default is a mistake, not something to ignore. */
function checkFormatOptions(
  value: SinkConfig,
  format: Format,
  formats: readonly Format[],
  ctx: z.RefinementCtx,
): void {
  for (const other of formats) {
    if (other === format) continue;
    for (const [key, schema] of Object.entries(other.options)) {
      const fallback = schema.safeParse(undefined);
      if (value[key] !== undefined && (!fallback.success || fallback.data !== value[key])) {
        issue(ctx, `${key} applies to format ${other.type} only`, key);
      }
    }
  }
}

/** Rules on `path` that keep names deterministic per slice and unique within it. */
function checkPathTemplate(value: SinkConfig, destination: Destination, ctx: z.RefinementCtx): void {
  const path = value.path ?? "";
  let fields: readonly string[] = [];
  try {
    ({ fields } = compilePathTemplate(path));
  } catch (error) {
    issue(ctx, (error as Error).message, "path");
    return;
  }
  if (!path.includes("{slice}")) {
    issue(
      ctx,
      `"${path}" has no {slice}: two slices would write the same names, and a redone slice could not replace its own files`,
      "path",
    );
  }
  if (
    (value.max_rows_per_file !== undefined || value.max_file_bytes !== undefined) &&
    !path.includes("{seq}")
  ) {
    issue(ctx, `"${path}" has no {seq}, which rolled files need`, "path");
  }
  if (destination.stream === true && fields.length > 0) {
    issue(
      ctx,
      `${destination.type} (to: ${value.to}) is one stream; record fields in the path (${fields.join(", ")}) have no meaning there`,
      "path",
    );
  }
}
