// A run's place in the quota ledger, when the pipeline (or MDQ_QUOTA_LEDGER) names one: joined before
// the first request, its claim set once the plan is known, asked before each slice whether a
// higher-priority claim means stopping, and ended with the run's outcome.
import type { Pipeline } from "../../config/pipeline-schema.js";
import type { Logger } from "../../logger.js";
import type { RunInfo } from "../../core/contracts.js";
import type { QuotaLedgerNumbers, RunObserver } from "../../core/run-observer.js";
import { errorMessage, EtlError, hasCode } from "../../errors.js";
import { systemClock } from "../../api/clock.js";
import { isLedgerUrl, openQuotaLedger } from "../../quota-ledger/quota-ledger.js";
import type { QuotaLedger } from "../../quota-ledger/quota-ledger.js";
import type { RunRegistration } from "../../quota-ledger/ledger-types.js";
import { LedgerGate } from "../../quota-ledger/ledger-gate.js";
import { minimumBlock } from "../../quota-ledger/ledger-block-size.js";
import { describeLedgerUrl } from "../../quota-ledger/ledger-url.js";

export interface RunLedger {
  readonly gate: LedgerGate;
  /** Sets the claim: the requests the plan needs; `own`, this shard's part (blocks are sized from it). */
  claim(requests: number, own?: number): Promise<void>;
  /** The error to stop with before starting another slice, once a higher-priority claim asks it. */
  stopStarting(): EtlError | undefined;
  /** Ends the run in the ledger (once; later calls do nothing) and closes the connection. */
  end(status: "complete" | "stopped" | "failed"): Promise<void>;
}

interface JoinLedgerOptions {
  log: Logger;
  run: RunInfo;
  /** MDQ_QUOTA_LEDGER, read by the CLI: used when the pipeline names no ledger. */
  envUrl: string | undefined;
  /** Told the ledger's numbers (the run's metrics). */
  observer?: RunObserver | undefined;
}

/**
 * Joins the ledger for `clientId`, or returns undefined when there is none (or it is out of reach and
 * the pipeline allows running alone). Throws QUOTA_LEDGER_UNREACHABLE before any request otherwise.
 */
export async function joinQuotaLedger(
  pipeline: Pipeline,
  clientId: string,
  options: JoinLedgerOptions,
): Promise<RunLedger | undefined> {
  const settings = pipeline.limits.quota;
  const url = settings.ledger ?? (options.envUrl === "" ? undefined : options.envUrl);
  if (url === undefined) return undefined;
  if (!isLedgerUrl(url)) {
    throw new EtlError(
      "QUOTA_LEDGER_UNREACHABLE",
      `the quota ledger ${describeLedgerUrl(url)} (MDQ_QUOTA_LEDGER) is not a postgres:// or postgresql:// URL`,
    );
  }
  const { window } = pipeline.source;
  const registration: RunRegistration = {
    runId: options.run.runId,
    clientId,
    pipeline: pipeline.name,
    // Pipeline and window: the shards of one backfill share it, and so one claim.
    claimKey: `${pipeline.name} ${window.start.toISOString()}/${window.end.toISOString()}`,
    priority: settings.priority,
    reserve: pipeline.limits.quota_reserve,
    leaseMs: settings.lease_ms,
    standing: settings.standing,
  };
  let ledger: QuotaLedger | undefined;
  try {
    ledger = await openQuotaLedger(url);
    await ledger.register(registration);
  } catch (error) {
    await ledger?.close().catch(() => undefined);
    if (settings.alone_when_unreachable && hasCode(error, "QUOTA_LEDGER_UNREACHABLE")) {
      options.log.warn(
        { ledger: describeLedgerUrl(url), error: errorMessage(error) },
        "The quota ledger is unreachable; running alone, as the pipeline allows (limits.quota.alone_when_unreachable).",
      );
      return undefined;
    }
    throw error;
  }
  return startRunLedger(ledger, pipeline, registration, options);
}

function startRunLedger(
  ledger: QuotaLedger,
  pipeline: Pipeline,
  registration: RunRegistration,
  options: JoinLedgerOptions,
): RunLedger {
  const settings = pipeline.limits.quota;
  const gate = new LedgerGate({
    ...registration,
    ledger,
    // Requests this run sends at once.
    blockSize: minimumBlock(pipeline.limits.concurrency),
    slotsWanted: pipeline.limits.concurrency,
    maxInFlight: settings.max_in_flight,
    recheckAfterMs: settings.recheck_after_ms,
    log: options.log.child({ component: "quota-ledger" }),
    clock: systemClock,
    ...(options.observer?.quotaLedger === undefined
      ? {}
      : { report: (numbers: QuotaLedgerNumbers) => options.observer?.quotaLedger?.(numbers) }),
  });
  options.log.info(
    { ledger: ledger.describe, priority: settings.priority, standing: settings.standing },
    "Joined the quota ledger.",
  );
  let ended: Promise<void> | undefined;
  return {
    gate,
    // The plan's requests, and those the run already sent to plan (mappings, the probe).
    claim: (requests, own = requests) => gate.claim(requests + gate.sent, own + gate.sent),
    stopStarting: () => gate.yieldError(),
    end(status) {
      ended ??= gate.close(status).finally(() => ledger.close().catch(() => undefined));
      return ended;
    },
  };
}
