// `--pushgateway URL`: pushes the run's registry to a Prometheus Pushgateway every interval while the
// run lasts and once when it ends, whatever the outcome, grouped by job, pipeline and shard (the
// Prometheus convention for batch jobs). A failed push is a warning, never a failed export.
import { Pushgateway } from "prom-client";
import type { Registry } from "prom-client";
import type { Logger } from "../logger.js";

export interface MetricsPusherOptions {
  url: string;
  registry: Registry;
  /** The grouping key after `job`: pipeline, and shard when sharded. */
  groupings: Record<string, string>;
  job?: string;
  log: Logger;
  /** Between pushes while the run lasts; 0 pushes only at the end. */
  intervalMs?: number;
  timeoutMs?: number;
}

export interface MetricsPusher {
  /** Stops the interval and pushes once more; resolves when that push ended, well or not. */
  finish(): Promise<void>;
}

/** The URL without credentials or query, for log lines. */
function describeGateway(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

export function startMetricsPusher(options: MetricsPusherOptions): MetricsPusher {
  const gateway = new Pushgateway(options.url, { timeout: options.timeoutMs ?? 10_000 }, options.registry);
  const job = options.job ?? "mdq-export";
  let warned = false;
  let inFlight: Promise<void> = Promise.resolve();
  const push = (): Promise<void> => {
    // POST replaces only the metrics this run sends, so the last success timestamp an earlier run
    // pushed stays in the group until this run completes and replaces it.
    inFlight = inFlight
      .then(() => gateway.pushAdd({ jobName: job, groupings: options.groupings }))
      .then(
        () => undefined,
        (error: unknown) => {
          // Once per run while it lasts; the final push warns again if it fails.
          if (warned) return;
          warned = true;
          options.log.warn(
            {
              pushgateway: describeGateway(options.url),
              error: error instanceof Error ? error.message : String(error),
            },
            "Pushing metrics to the Pushgateway failed; the export goes on.",
          );
        },
      );
    return inFlight;
  };
  const intervalMs = options.intervalMs ?? 15_000;
  const timer = intervalMs > 0 ? setInterval(() => void push(), intervalMs) : undefined;
  timer?.unref();
  void push();
  return {
    async finish() {
      if (timer !== undefined) clearInterval(timer);
      warned = false;
      await push();
    },
  };
}
