// The codes of what the user wrote: a pipeline or command line refused before anything is requested,
// and a request the client refuses to send.
import type { ErrorCodeInfo } from "./error-code-info.js";

export const INPUT_ERRORS = {
  CONFIG_INVALID: {
    exit: "invalid",
    meaning:
      "The pipeline file or the command line is invalid; every problem is listed with file, line and column.",
    action: "Edit the pipeline or the arguments as the message says; nothing was requested.",
  },
  REQUEST_INVALID: {
    exit: "failed",
    meaning: "A request broke the service's rules and was caught before it was sent.",
    action: "Fix the source section the message names (`validate` catches most of these offline).",
  },
} as const satisfies Record<string, ErrorCodeInfo>;
