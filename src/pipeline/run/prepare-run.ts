// What every command that talks to the service shares: open the service, learn the output columns,
// and plan the slices of this run (or of this shard).
import { randomBytes } from "node:crypto";
import type { Pipeline } from "../../config/pipeline-schema.js";
import type { Components } from "../../components/environment.js";
import type { Logger } from "../../logger.js";
import type { RunObserver } from "../../core/run-observer.js";
import { sourceColumnsFromService } from "./output-columns.js";
import { transformColumns } from "../../components/registry.js";
import type { Column, RunInfo } from "../../core/contracts.js";
import { planRun } from "../plan/plan.js";
import type { Plan } from "../plan/plan.js";
import { openSession } from "./session.js";
import type { Session } from "./session.js";
import { selectShard, shardReserve } from "../plan/shard.js";
import type { Shard } from "../plan/shard.js";
import { joinQuotaLedger } from "./run-ledger.js";
import { claimFor } from "../../quota-ledger/ledger-claim.js";

/** A run planned, its columns not known yet (the mappings may still be on their way). */
export interface PlannedRun {
  pipeline: Pipeline;
  /** The environment the pipeline was loaded with: its transforms, formats, destinations and kinds. */
  components: Components;
  session: Session;
  run: RunInfo;
  plan: Plan;
  /** The slices this process runs (all, or this shard's). */
  shardPlan: Plan["slices"];
  /** Whether this run re-checks committed slices; the plan then counted every slice. */
  rechecking: boolean;
}

export interface PreparedRun extends PlannedRun {
  sourceColumns: Column[];
  columns: readonly Column[];
  shard: Shard | undefined;
}

export interface PrepareOptions {
  log: Logger;
  /** Aborted to stop the run cleanly (resumable). */
  signal: AbortSignal;
  shard: Shard | undefined;
  /** Count every slice's records even when the plan needs no probe. */
  alwaysProbe?: boolean;
  /**
   * A run that may re-check: `--recheck` given, or the pipeline's `recheck.last_days` (then the plan
   * also counts that many days before the window's start).
   */
  recheck?: { requested: boolean };
  /** The run's identity when the caller made it first (to label its logs and metrics). */
  run?: RunInfo;
  /** Told of the client's requests, retries and quota (the run's metrics). */
  observer?: RunObserver;
  /** The environment the pipeline was loaded with (the caller's: never looked up here). */
  components: Components;
  /**
   * Runs once the plan is made, while the service's mappings are still on their way: what a run can
   * do before it knows its columns (check its request budget) overlaps that round trip.
   * Its failure fails the preparation.
   */
  whileMappingsPending?: (planned: PlannedRun) => Promise<void>;
  /**
   * Join the quota ledger the pipeline names (or `envUrl`, MDQ_QUOTA_LEDGER) before the first
   * request, and claim the plan's requests. Only a run does; `plan` and the other commands do not.
   */
  quotaLedger?: { envUrl: string | undefined };
}

/** The identity of one run of a pipeline: its name, a fresh run id, and when it started. */
export function newRunInfo(pipelineName: string, startedAt = new Date()): RunInfo {
  // 2026-11-21T00:00:00.000Z → 20261121T000000Z
  const stamp = startedAt.toISOString().replace(/[-:]|\.\d+(?=Z$)/g, "");
  return { pipelineName, runId: `${pipelineName}-${stamp}-${randomBytes(3).toString("hex")}`, startedAt };
}

/** Opens the service and plans; the caller closes `session`. Makes requests (mappings, probe). */
export async function prepareRun(pipeline: Pipeline, options: PrepareOptions): Promise<PreparedRun> {
  const { log } = options;
  const run = options.run ?? newRunInfo(pipeline.name);
  // Aborted when the preparation fails: what is still in flight (the mappings, a probe) stops at once
  // instead of being retried on a client that is closed.
  const inFlight = new AbortController();
  const signal = AbortSignal.any([options.signal, inFlight.signal]);
  const ledgerJoin = options.quotaLedger;
  // With a ledger the fleet's requests are counted there: a shard keeps the pipeline's own reserve.
  const sharesLedger =
    ledgerJoin !== undefined && (pipeline.limits.quota.ledger ?? ledgerJoin.envUrl ?? "") !== "";
  const quotaReserve = sharesLedger
    ? pipeline.limits.quota_reserve
    : shardReserve(pipeline.limits.quota_reserve, options.shard, pipeline.limits.concurrency);
  const session = await openSession(pipeline.service, {
    log,
    ...(options.observer === undefined ? {} : { observer: options.observer }),
    quotaReserve,
    concurrency: pipeline.limits.concurrency,
    ...(ledgerJoin === undefined
      ? {}
      : {
          joinLedger: (clientId: string) =>
            joinQuotaLedger(pipeline, clientId, {
              log,
              run,
              envUrl: ledgerJoin.envUrl,
              observer: options.observer,
            }),
        }),
  });
  const rechecking =
    options.recheck !== undefined && (options.recheck.requested || pipeline.recheck.last_days > 0);
  const recheckMs = rechecking ? pipeline.recheck.last_days * 86_400_000 : 0;
  try {
    const { components } = options;
    // Independent requests, sent together: a round trip less before the first slice starts.
    const mappings = sourceColumnsFromService(session.client, pipeline.source, components.kinds, signal, log);
    // Awaited below; a plan that fails first leaves it unread.
    mappings.catch(() => undefined);
    const plan = await planRun({
      client: session.client,
      query: pipeline.source,
      kinds: components.kinds,
      window: {
        ...pipeline.source.window,
        start: new Date(pipeline.source.window.start.getTime() - recheckMs),
      },
      alwaysProbe: options.alwaysProbe === true || rechecking,
      signal,
    });
    const shardPlan = selectShard(
      plan.slices.map((slicePlan) => ({ ...slicePlan, index: slicePlan.slice.index })),
      options.shard,
    );
    // Unprobed slices are claimed at a conservative estimate, not the plan's one page (ledger-claim.ts).
    await session.ledger?.claim(claimFor(plan.slices), claimFor(shardPlan));
    const planned: PlannedRun = { pipeline, components, session, run, plan, shardPlan, rechecking };
    await options.whileMappingsPending?.(planned);
    const sourceColumns = await mappings;
    // What the sinks write: the source's columns as the transforms reshape them.
    const { columns } = transformColumns(components.transforms, pipeline.transforms, sourceColumns);
    return { ...planned, sourceColumns, columns, shard: options.shard };
  } catch (error) {
    inFlight.abort(error);
    await session.close();
    throw error;
  }
}
