// `to: ./out/jobs`: a local directory, written through temporary files renamed on commit.
import type { Destination } from "../destination.js";
import { writerTag } from "../../core/writer-tag.js";
import { createLocalStore } from "./local-store.js";

export const fileDestination: Destination = {
  type: "file",
  summary: "A local directory; files appear under their final names when their slice commits.",
  target: { path: true },
  example: "a directory (./out/jobs)",
  open: async (to, _options, deps) => createLocalStore(to, { writer: writerTag(deps.run.runId) }),
};
