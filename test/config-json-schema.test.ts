// The committed JSON Schema and the generated reference in docs/pipelines.md equal a fresh
// generation, so neither drifts from the validator. Regenerate with the schema script.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { JSON_SCHEMA_PATH, pipelineJsonSchemaText } from "../src/config/json-schema.js";
import {
  DOCS_PATH,
  pipelineReference,
  REFERENCE_END,
  REFERENCE_START,
} from "../src/config/pipeline-reference.js";

const root = new URL("../", import.meta.url);
const STALE = "stale: run `npx vite-node src/config/write-json-schema.ts` (npm run schema)";

describe("generated pipeline schema and reference", () => {
  it(`${JSON_SCHEMA_PATH} is current`, async () => {
    const committed = await readFile(new URL(JSON_SCHEMA_PATH, root), "utf8");
    expect(committed, STALE).toBe(pipelineJsonSchemaText());
  });

  it(`the reference in ${DOCS_PATH} is current`, async () => {
    const docs = await readFile(new URL(DOCS_PATH, root), "utf8");
    const start = docs.indexOf(REFERENCE_START) + REFERENCE_START.length;
    const committed = docs.slice(start, docs.indexOf(REFERENCE_END)).trim();
    expect(committed, STALE).toBe(pipelineReference());
  });

  it("is a strict draft-7 schema that editors can use", () => {
    const schema = JSON.parse(pipelineJsonSchemaText()) as Record<string, unknown>;
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(["name", "service", "source", "sinks"]);
  });
});
