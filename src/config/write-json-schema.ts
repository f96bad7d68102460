// Script: writes schema/pipeline.schema.json and the reference part of docs/pipelines.md from the
// pipeline schema. Run after changing any schema (`npx vite-node src/config/write-json-schema.ts`);
// the drift tests fail while either file is stale. Importing this module writes the files.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { JSON_SCHEMA_PATH, pipelineJsonSchemaText } from "./json-schema.js";
import { DOCS_PATH, pipelineReference, replaceReference } from "./pipeline-reference.js";

// src/config/ in the sources, dist/config/ in the build: the repository root is two levels up.
const root = fileURLToPath(new URL("../../", import.meta.url));

await writeFile(`${root}${JSON_SCHEMA_PATH}`, pipelineJsonSchemaText());
const docs = await readFile(`${root}${DOCS_PATH}`, "utf8");
await writeFile(`${root}${DOCS_PATH}`, replaceReference(docs, pipelineReference()));
process.stdout.write(`wrote ${JSON_SCHEMA_PATH} and ${DOCS_PATH}\n`);
