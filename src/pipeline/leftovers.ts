// Temporary files a killed process left behind, and which of them this run may remove.
import type { Logger } from "../logger.js";
import type { OutputStore } from "./contracts.js";
import { manifestObjectPath, successMarkerPath } from "./manifest.js";
import type { Plan } from "./plan.js";
import type { Shard } from "./shard.js";
import { stateObjectPath } from "./state.js";
import type { StateStore } from "./state.js";

/**
 * A process killed mid-slice leaves hidden temporary files. They are this run's to remove when they
 * belong to a slice it is about to redo, or to the state and manifest it writes; leftovers of other
 * shards' slices are theirs (they may be running right now).
 */
export async function removeLeftovers(
  stores: readonly OutputStore[],
  slices: Plan["slices"],
  state: StateStore,
  shard: Shard | undefined,
  log: Logger,
  rechecked: ReadonlySet<string> = new Set(),
): Promise<void> {
  const redo = slices
    .map((plan) => plan.slice.id)
    .filter((id) => !state.isCommitted(id) || rechecked.has(id));
  const own = new Set([stateObjectPath(shard), manifestObjectPath(shard), successMarkerPath(shard)]);
  const owns = (path: string): boolean => own.has(path) || redo.some((id) => path.includes(id));
  for (const store of stores) {
    const removed = (await store.removeLeftovers?.(owns)) ?? [];
    if (removed.length > 0)
      log.info(
        { to: store.location, files: removed.length },
        "Removed temporary files an interrupted run left.",
      );
  }
}
