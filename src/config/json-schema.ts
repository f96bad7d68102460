// The JSON Schema of pipeline files, generated from the zod schema, for editors (yaml-language-server)
// and the reference in docs/pipelines.md. Refinements across fields are not expressible there; the
// `validate` command checks them.
import { z } from "zod";
import { defaultComponents } from "../components/environment.js";
import { createPipelineSchema } from "./pipeline-schema.js";

/** Where the committed schema lives, relative to the repository root. */
export const JSON_SCHEMA_PATH = "schema/pipeline.schema.json";

/** The schema does not depend on `now`; a fixed instant keeps the output stable. */
const FIXED_NOW = new Date("2026-01-01T00:00:00Z");

export function pipelineJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(createPipelineSchema(FIXED_NOW, defaultComponents()), {
    io: "input",
    target: "draft-7",
    unrepresentable: "any",
  });
  return {
    ...schema,
    $id: "https://mdq-export.dev/schema/pipeline.schema.json",
    title: "mdq-export pipeline",
  };
}

/** The file's text: stable key order from the schema, two-space indent, final newline. */
export function pipelineJsonSchemaText(): string {
  return `${JSON.stringify(pipelineJsonSchema(), null, 2)}\n`;
}
