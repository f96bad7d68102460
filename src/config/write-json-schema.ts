// Script: writes schema/pipeline.schema.json and the reference part of docs/pipelines.md from the
// pipeline schema, and docs/errors.md from the error codes. Run after changing any schema (`npx vite-node src/config/write-json-schema.ts`);
// the drift tests fail while either file is stale. Importing this module writes the files.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ERRORS_DOC_PATH, errorsDocument } from "../error-codes.js";
import { JSON_SCHEMA_PATH, pipelineJsonSchemaText } from "./json-schema.js";
import { DOCS_PATH, pipelineReference, replaceReference } from "./pipeline-reference.js";

// src/config/ in the sources, dist/config/ in the build: the repository root is two levels up.
const root = fileURLToPath(new URL("../../", import.meta.url));

await writeFile(`${root}${JSON_SCHEMA_PATH}`, pipelineJsonSchemaText());
const docs = await readFile(`${root}${DOCS_PATH}`, "utf8");
await writeFile(`${root}${DOCS_PATH}`, replaceReference(docs, pipelineReference()));
await writeFile(`${root}${ERRORS_DOC_PATH}`, errorsDocument());
process.stdout.write(`wrote ${JSON_SCHEMA_PATH}, ${DOCS_PATH} and ${ERRORS_DOC_PATH}\n`);
