// `--pushgateway URL`: pushes the run's registry to a Prometheus Pushgateway every interval while the
// run lasts and once when it ends, whatever the outcome, grouped by job, pipeline and shard (the
// Prometheus convention for batch jobs). A failed push is a warning, never a failed export, and no
// push outlives its deadline: the last one ends by then whatever the gateway does, so the process
// exits on time.
import type { Registry } from "prom-client";
import { errorMessage } from "../errors.js";
import { describeUrl } from "../api/redact.js";
import type { Logger } from "../logger.js";
import { pushToGateway } from "./push-to-gateway.js";

interface MetricsPusherOptions {
  url: string;
  registry: Registry;
  /** The grouping key after `job`: pipeline, and shard when sharded. */
  groupings: Record<string, string>;
  log: Logger;
  /** Between pushes while the run lasts; 0 pushes only at the end. */
  intervalMs: number;
  /** One push's whole attempt, the last one included (MDQ_PUSH_TIMEOUT_SECONDS). */
  deadlineMs: number;
}

export interface MetricsPusher {
  /** Stops the interval, drops a push still in flight and pushes once more, within the deadline. */
  finish(): Promise<void>;
}

export function startMetricsPusher(options: MetricsPusherOptions): MetricsPusher {
  let warnedWhileRunning = false;
  let inFlight: { done: Promise<void>; stop: AbortController } | undefined;

  const push = (final: boolean): Promise<void> => {
    const stop = new AbortController();
    // POST replaces only the metrics this run sends, so the last success timestamp an earlier run
    // pushed stays in the group until this run completes and replaces it.
    const done = options.registry
      .metrics()
      .then((body) =>
        pushToGateway({
          url: options.url,
          job: "mdq-export",
          groupings: options.groupings,
          body,
          contentType: options.registry.contentType,
          deadlineMs: options.deadlineMs,
          signal: stop.signal,
        }),
      )
      .then(
        () => undefined,
        (error: unknown) => {
          if (stop.signal.aborted) return;
          // Once while the run lasts; the final push warns again if it fails.
          if (!final && warnedWhileRunning) return;
          if (!final) warnedWhileRunning = true;
          options.log.warn(
            {
              pushgateway: describeUrl(options.url),
              error: errorMessage(error),
            },
            "Pushing metrics to the Pushgateway failed; the export goes on.",
          );
        },
      )
      .finally(() => {
        if (inFlight?.done === done) inFlight = undefined;
      });
    inFlight = { done, stop };
    return done;
  };

  const { intervalMs } = options;
  // A gateway slower than the interval gets one push at a time, not a queue of them.
  const tick = (): void => void (inFlight === undefined ? push(false) : undefined);
  const timer = intervalMs > 0 ? setInterval(tick, intervalMs) : undefined;
  timer?.unref();
  tick();
  return {
    async finish() {
      if (timer !== undefined) clearInterval(timer);
      // The last push carries every value the one in flight does, and more.
      const previous = inFlight;
      previous?.stop.abort();
      await previous?.done;
      await push(true);
    },
  };
}
