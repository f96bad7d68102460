// The pipeline schema: name, service, source, transforms, sinks and limits, with the rule that
// transforms refer only to fields the source returns. `now` is injected so windows resolve offline;
// the environment's components give the transforms, formats and destinations a pipeline may name.
import { z } from "zod";
import type { Components } from "../components/environment.js";
import { kindOf } from "../components/environment.js";
import { transformColumns } from "../components/registry.js";
import { createSinkConfigSchema } from "../sinks/sink-config.js";
import { createTransformsSchema } from "./transforms-schema.js";
import { limitsSchema } from "./limits-schema.js";
import { serviceSchema } from "./service-schema.js";
import { sourceColumns } from "./source-columns.js";
import { createSourceSchema } from "./source-schema.js";
import { recheckSchema } from "./recheck-schema.js";
import { checkPartitionGrid, withPartitionGrid } from "./partition-grid.js";
import { checkPathPlaceholders } from "./path-placeholders.js";
import {
  collisionMessage,
  columnCollisions,
  namingRules,
  rulesForColumns,
} from "../warehouse/column-names.js";
import { kindColumnNames } from "../kinds/data-kind.js";

const PIPELINE_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/**
 * The schema of a pipeline file, with windows resolved against `now`.
 * @example createPipelineSchema(new Date(), defaultComponents()).parse(definition)
 */
export function createPipelineSchema(now: Date, components: Components) {
  return z
    .strictObject({
      name: z
        .string()
        .regex(
          PIPELINE_NAME_PATTERN,
          "expected lowercase letters, digits, '.', '_' or '-', starting with a letter or digit (at most 100)",
        )
        .describe("Name of the pipeline, used in logs, the manifest and the state. Required."),
      service: serviceSchema,
      source: createSourceSchema(now, components.kinds),
      transforms: createTransformsSchema(components.transforms),
      sinks: z
        .array(createSinkConfigSchema(components))
        .min(1)
        .describe("Where rows are written; each sink gets every row (fan-out). At least one."),
      limits: limitsSchema.prefault({}),
      recheck: recheckSchema.prefault({}),
    })
    .superRefine((pipeline, ctx) => {
      checkPartitionGrid(pipeline, ctx);
      // zod runs this check even when a step failed its own schema (an unknown transform name); such
      // a step is still raw YAML and already reported, so the columns cannot be followed through it.
      if (!pipeline.transforms.every((step) => Object.hasOwn(components.transforms, step.type))) return;
      checkPathPlaceholders(pipeline, components, ctx);
      const columns = sourceColumns(pipeline.source, components.kinds);
      if (columns === undefined) return;
      const transformed = transformColumns(components.transforms, pipeline.transforms, columns);
      const kindNames = kindColumnNames(kindOf(components, pipeline.source.kind), pipeline.source);
      for (const [index, sink] of pipeline.sinks.entries()) {
        const rules = rulesForColumns(namingRules(sink, kindNames), transformed.columns);
        for (const collision of columnCollisions(transformed.columns, rules))
          ctx.addIssue({
            code: "custom",
            path: ["sinks", index, "column_names"],
            message: collisionMessage(collision),
          });
      }
      for (const problem of transformed.problems) {
        ctx.addIssue({
          code: "custom",
          path: ["transforms", problem.step, problem.type, problem.path],
          message: problem.message,
          // rename and add are keyed by field name: the key is what the author must change.
          params: { atKey: problem.type === "rename" || problem.type === "add" },
        });
      }
    })
    .describe(
      "An mdq-export pipeline: one kind of data over a window, reshaped, written to one or more sinks.",
    )
    .transform((pipeline) => withPartitionGrid(pipeline));
}

/** A validated pipeline: defaults applied, window resolved to instants, transforms as `{ type, config }`. */
export type Pipeline = z.output<ReturnType<typeof createPipelineSchema>>;
