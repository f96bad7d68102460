// The `transforms` schema, built from an environment's transforms: each entry is a single-key map
// whose key names the stage (`- rename: {...}`), so a transform added to the environment extends
// pipelines by itself.
import { z } from "zod";
import type { TransformStep, TransformTable } from "../components/registry.js";
import { requireExactlyOne } from "./strict-keys.js";

function stepShape(transforms: TransformTable): Record<string, z.ZodOptional> {
  const shape: Record<string, z.ZodOptional> = {};
  for (const [type, component] of Object.entries(transforms)) {
    shape[type] = component.schema
      .optional()
      .describe(`${component.summary} ${component.schema.description ?? ""}`.trim());
  }
  return shape;
}

/** The schema of one step, `{ rename: {...} }` in, `{ type: "rename", config }` out. */
function createTransformStepSchema(transforms: TransformTable) {
  const types = Object.keys(transforms);
  return z
    .strictObject(stepShape(transforms))
    .superRefine((step, ctx) => requireExactlyOne(step, types, "transform step", ctx))
    .transform((step): TransformStep => {
      // Exactly one key is set (checked above), and its config was parsed by that key's schema.
      const type = types.find((key) => step[key] !== undefined) ?? "";
      return { type, config: step[type] };
    })
    .meta({ minProperties: 1, maxProperties: 1 })
    .describe(`One transform: a single-key map naming the stage (${types.join(", ")}).`);
}

export function createTransformsSchema(transforms: TransformTable) {
  return z
    .array(createTransformStepSchema(transforms))
    .default([])
    .describe("Transforms applied in order to every batch. Default none.");
}
