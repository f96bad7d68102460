// `to: ./out/jobs`: a local directory, written through temporary files renamed on commit.
import { resolve } from "node:path";
import type { Destination } from "../destination.js";
import { writerTag } from "../../core/writer-tag.js";
import { createLocalStore } from "./local-store.js";

export const fileDestination: Destination = {
  type: "file",
  summary: "A local directory; files appear under their final names when their slice commits.",
  target: { path: true },
  example: "a directory (./out/jobs)",
  // Create-if-absent (link) and compare-and-swap under a guard file (local-conditional-objects.ts).
  lock: "conditional",
  // DuckDB reads a local directory, made absolute since the statement runs from anywhere; the cloud
  // warehouses read only their own storage.
  ddlLocation: (to, dialect) => (dialect === "duckdb" ? resolve(to) : undefined),
  open: async (to, _options, deps) => createLocalStore(to, { writer: writerTag(deps.run.runId) }),
};
