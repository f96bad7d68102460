// Routes what dependencies print on their own — process warnings (deprecations, experimental
// features) and console calls (some AWS SDK warnings bypass its logger) — to a handler that logs
// them as structured lines, so nothing raw reaches stderr, and nothing at all reaches stdout, which
// may carry data.
import process from "node:process";
import { format } from "node:util";
import type { DependencyMessage } from "./io.js";

const CONSOLE_METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;

/**
 * @example
 * const release = routeDependencyMessages((message) => log.warn(message, "A dependency warned."));
 * ...; release();
 */
export function routeDependencyMessages(handler: (message: DependencyMessage) => void): () => void {
  // Node prints warnings through a 'warning' listener of its own; ours replaces it while routed.
  const previous = process.listeners("warning");
  process.removeAllListeners("warning");
  const onWarning = (warning: Error & { code?: string }): void =>
    handler({
      source: "process_warning",
      message: warning.message,
      name: warning.name,
      ...(typeof warning.code === "string" ? { code: warning.code } : {}),
    });
  process.on("warning", onWarning);
  const saved = CONSOLE_METHODS.map((method) => [method, console[method]] as const);
  for (const method of CONSOLE_METHODS) {
    console[method] = (...args: unknown[]): void =>
      handler({ source: "console", message: format(...args), name: `console.${method}` });
  }
  return () => {
    process.off("warning", onWarning);
    for (const listener of previous) process.on("warning", listener);
    for (const [method, original] of saved) console[method] = original;
  };
}
