// The `transforms` schema, built from the registry: each entry is a single-key map whose key names
// the stage (`- rename: {...}`), so a new transform in the registry extends pipelines by itself.
import { z } from "zod";
import { TRANSFORMS } from "../components/registry.js";
import type { TransformStep, TransformType } from "../components/registry.js";
import { requireExactlyOne } from "./strict-keys.js";

const TYPES = Object.keys(TRANSFORMS) as TransformType[];

type StepShape = { [K in TransformType]: z.ZodOptional<(typeof TRANSFORMS)[K]["schema"]> };

function stepShape(): StepShape {
  const shape: Record<string, z.ZodOptional> = {};
  for (const type of TYPES) {
    const component = TRANSFORMS[type];
    shape[type] = component.schema
      .optional()
      .describe(`${component.summary} ${component.schema.description ?? ""}`.trim());
  }
  // Built key by key from the registry; the mapped type states what the loop produces.
  return shape as StepShape;
}

export const transformStepSchema = z
  .strictObject(stepShape())
  .superRefine((step, ctx) => requireExactlyOne(step, TYPES, "transform step", ctx))
  .transform((step): TransformStep => {
    const type = TYPES.find((key) => step[key] !== undefined) ?? "flatten";
    // The key and its config were validated together above, so they belong to the same stage.
    return { type, config: step[type] } as TransformStep;
  })
  .meta({ minProperties: 1, maxProperties: 1 })
  .describe(`One transform: a single-key map naming the stage (${TYPES.join(", ")}).`);

export const transformsSchema = z
  .array(transformStepSchema)
  .default([])
  .describe("Transforms applied in order to every batch. Default none.");
