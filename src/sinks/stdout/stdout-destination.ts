// `to: -`: standard output, one stream for piping into another tool.
import type { Destination } from "../destination.js";
import { createStdoutStore } from "./stdout-store.js";

export const stdoutDestination: Destination = {
  type: "stdout",
  summary:
    "Standard output, one stream of records for a pipe (formats that stream only); nothing to commit or resume.",
  target: { literal: "-" },
  example: "- (stdout)",
  stream: true,
  // A process's standard output is its own: no other run writes into it.
  lock: "unshared",
  open: async (_to, _options, deps) => createStdoutStore(deps.stdout),
};
