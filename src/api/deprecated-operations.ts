// The service's deprecated operations: a run that still uses one is told, once, what replaces it.
import type { Logger } from "../logger.js";

/** The v2 operation replacing each deprecated v1 logs operation. */
const V1_REPLACEMENTS: Readonly<Record<string, string>> = {
  "/v1/logs/scroll": "/v2/logs/scroll",
  "/v1/logs/batch": "/v2/logs/batch",
  "/v1/logs/batch/urls": "/v2/logs/batch/status",
  "/v1/logs/batch/status": "/v2/logs/batch/status",
};

/**
 * A check to call before each request: the first deprecated operation logs one warning naming its
 * replacement; a run's log says it once, not on every page.
 * @example
 * const warnIfDeprecated = deprecationWarner(logger);
 * warnIfDeprecated("/v1/logs/scroll");
 */
export function deprecationWarner(logger: Logger): (path: string) => void {
  let warned = false;
  return (path) => {
    const replacement = V1_REPLACEMENTS[path];
    if (replacement === undefined || warned) return;
    warned = true;
    logger.warn(
      { operation: path, replacement },
      "The v1 logs endpoints are deprecated since 2026-03-01; migrate to the v2 logs endpoints.",
    );
  };
}
