// A run's observability from start to end: the run's identity and a logger carrying it, the metrics
// (served on --metrics-port, pushed to a Pushgateway), the counts the run report needs, and at the
// end the last push, the port closed and the report written, whatever the outcome. The rule for these
// side channels: what can be checked (the report's folder, the metrics port) is checked before the
// first request, and a problem stops the run with exit 2 and its fix; once the run has begun, a side
// channel only ever warns, and never changes the run's outcome or exit code.
import type { Writable } from "node:stream";
import type { ConfigError, ConfigIssue } from "../errors.js";
import type { Pipeline } from "../config/pipeline-schema.js";
import { configErrorAt, errorMessage } from "../errors.js";
import type { Logger } from "../logger.js";
import type { RunInfo } from "../core/contracts.js";
import { newRunInfo } from "../pipeline/run/prepare-run.js";
import type { PipelineEvents } from "../pipeline/run/run-options.js";
import type { Shard } from "../pipeline/plan/shard.js";
import type { MetricsPusher } from "./metrics-pusher.js";
import type { MetricsServer } from "./metrics-server.js";
import { observabilitySettings } from "./observability-settings.js";
import type { ObservabilityFlags } from "./observability-settings.js";
import { observePipeline } from "./observe-pipeline.js";
import type { RunMetrics } from "./run-metrics.js";
import { combineObservers } from "../core/run-observer.js";
import type { RunObserver } from "../core/run-observer.js";
import { buildRunReport, writeRunReport } from "./run-report.js";
import type { ReportedRun } from "./run-report.js";
import type { PipelineOutcome } from "../pipeline/run/run-outcome.js";
import { createRunTally } from "./run-tally.js";
import { checkReportTarget } from "./report-file.js";
import type { Components } from "../components/environment.js";
import { destinationOf } from "../sinks/open-output-store.js";

/** What runPipeline takes from the observability of a run. */
interface ObservedRun {
  /** For runPipeline: the run's identity, the logger carrying it on every line, the observer. */
  options: { run: RunInfo; log: Logger; observer: RunObserver };
  /** The run's events, counted, then passed on to `also`. */
  events(also?: PipelineEvents): PipelineEvents;
}

interface RunObservability {
  /** The report goes to stdout, so the run summary does not. */
  readonly reportsToStdout: boolean;
  /** Once the pipeline is loaded, before any request: the metrics, their server and pusher. */
  /** Keeps a warning of the pipeline's loading, logged by `start` with the run id. */
  loadWarning(issue: ConfigIssue): void;
  start(pipeline: Pipeline, shard: Shard | undefined): Promise<ObservedRun>;
  /**
   * Ends the metrics (last push, port closed) and writes the report; returns `exitCode` whatever
   * happens to them (a failed push or report write is logged, never thrown).
   */
  finish(exitCode: number, error?: unknown): Promise<number>;
}

/** A metrics port that cannot be listened on, as an argument error naming the fix. */
function metricsPortRefused(address: string, port: number, error: unknown): ConfigError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === "EADDRINUSE"
      ? "is already in use"
      : code === "EACCES"
        ? "needs privileges this user lacks"
        : code === "EADDRNOTAVAIL"
          ? "is not an address of this host"
          : `cannot be listened on (${code ?? String(error)})`;
  const fix =
    code === "EADDRNOTAVAIL"
      ? "give one of this host's addresses in --metrics-address"
      : "pick another --metrics-port (0 takes any free one), or stop what listens there";
  const message = `--metrics-port ${port} on ${address} ${why}; ${fix}`;
  return configErrorAt("--metrics-port", message);
}

/**
 * Reads the settings from `flags`, else `env` (throws ConfigError for a bad one, before any request).
 * @example
 * const observability = createRunObservability(values, io.env, log, io.stdout, io.components);
 */
export function createRunObservability(
  flags: ObservabilityFlags,
  env: Readonly<Record<string, string | undefined>>,
  log: Logger,
  stdout: Writable,
  components: Components,
): RunObservability {
  const settings = observabilitySettings(flags, env);
  const tally = createRunTally();
  const startedAt = new Date();
  let metrics: RunMetrics | undefined;
  let server: MetricsServer | undefined;
  let pusher: MetricsPusher | undefined;
  let reported: ReportedRun | undefined;
  let outcome: PipelineOutcome | undefined;
  const warnings: ConfigIssue[] = [];
  let finishLog = log;
  /** Set once the report's folder was found unusable before the run: nothing to write at the end. */
  let reportRefused = false;

  return {
    reportsToStdout: settings.report === "-",
    loadWarning: (issue) => void warnings.push(issue),
    async start(pipeline, shard) {
      // A stream destination writes to the process's stdout, the one `--report -` would write to.
      const streams = pipeline.sinks.some(
        (sink) => destinationOf(sink, components.destinations).stream === true,
      );
      if (settings.report === "-" && streams) {
        const message = "--report - and a sink writing to - would share stdout; write the report to a file";
        throw configErrorAt("--report", message);
      }
      const run = newRunInfo(pipeline.name, startedAt);
      const runLog = log.child({ run_id: run.runId, pipeline: pipeline.name });
      finishLog = runLog;
      if (settings.report !== undefined && settings.report !== "-")
        await checkReportTarget(settings.report).catch((error: unknown) => {
          reportRefused = true;
          throw error;
        });
      // The load's warnings, delayed until the run id is known, carry it too.
      for (const { message, ...where } of warnings)
        runLog.warn({ path: where.path, line: where.line }, message);
      // `i-of-n` when the run is one shard of a backfill, on every series and in the push's grouping.
      const shardLabel: Record<string, string> =
        shard === undefined ? {} : { shard: `${shard.index}-of-${shard.count}` };
      let observer: RunObserver = tally;
      if (settings.metricsPort !== undefined || settings.pushgateway !== undefined) {
        // Loaded only when metrics are asked for: prom-client is about 10 MB of a run's memory.
        const { createRunMetrics } = await import("./run-metrics.js");
        metrics = createRunMetrics({
          pipeline: pipeline.name,
          kind: pipeline.source.kind,
          ...shardLabel,
        });
        observer = combineObservers(tally, metrics.observer);
      }
      if (metrics !== undefined && settings.metricsPort !== undefined) {
        const { serveMetrics } = await import("./metrics-server.js");
        server = await serveMetrics(metrics.registry, settings.metricsPort, settings.metricsAddress).catch(
          (error: unknown) => {
            throw metricsPortRefused(settings.metricsAddress, settings.metricsPort ?? 0, error);
          },
        );
        runLog.info(
          { port: server.port, address: settings.metricsAddress },
          "Serving metrics on /metrics while the run lasts.",
        );
      }
      if (metrics !== undefined && settings.pushgateway !== undefined) {
        const { startMetricsPusher } = await import("./metrics-pusher.js");
        pusher = startMetricsPusher({
          url: settings.pushgateway,
          registry: metrics.registry,
          groupings: { pipeline: pipeline.name, ...shardLabel },
          log: runLog,
          intervalMs: settings.pushIntervalMs,
          deadlineMs: settings.pushDeadlineMs,
        });
      }
      const sinks = pipeline.sinks.map((sink) => ({ to: sink.to, format: sink.format }));
      reported = { pipeline: pipeline.name, runId: run.runId, shard, window: pipeline.source.window, sinks };
      const events = (also?: PipelineEvents): PipelineEvents =>
        observePipeline(
          observer,
          {
            ...also,
            started(progressRun) {
              metrics?.setSlicesPlanned(progressRun.progress().slicesTotal);
              also?.started?.(progressRun);
            },
          },
          (ended) => {
            outcome = ended;
            metrics?.recheckDecreased(ended.decreased?.length ?? 0);
            metrics?.setOpenSlices(ended.slices.filter((slice) => slice.open).length);
          },
        );
      return { options: { run, log: runLog, observer }, events };
    },
    async finish(exitCode, error) {
      metrics?.finish(exitCode);
      await pusher?.finish();
      await server?.close();
      if (settings.report === undefined || reportRefused) return exitCode;
      const ended = { exitCode, error, endedAt: new Date(), tally: tally.snapshot() };
      const report = buildRunReport({ ...ended, startedAt, run: reported, outcome });
      await writeRunReport(settings.report, report, stdout).catch((failure: unknown) => {
        const code = (failure as NodeJS.ErrnoException).code;
        finishLog.error(
          {
            report: settings.report,
            error: code ?? errorMessage(failure),
          },
          "The run report could not be written; the run's outcome and exit code stand.",
        );
      });
      return exitCode;
    },
  };
}
