// The first pages asked for early: while the service's mappings are on their way, a run sends the
// first page request of the slices it will run first, so one round trip less stands before the
// first hit (docs/performance.md).
import type { ServiceClient } from "../../api/client.js";
import type { RequestOf } from "../../api/service-operation.js";
import type { OperationPath } from "../../api/wire/operations.js";
import type { EarlyRequest } from "../../kinds/data-kind.js";
import type { Logger } from "../../logger.js";
import { StateStore } from "../output-state/state.js";
import type { StateStoreOptions } from "../output-state/state-open.js";
import type { PlannedRun } from "./prepare-run.js";
import { windowSlices } from "./slices-to-run.js";

export interface EarlyPagesOptions {
  /** How the run's state is opened: it is peeked at, never written, for the slices committed. */
  state: StateStoreOptions;
  force: boolean;
  log: Logger;
}

/**
 * Sends the first page request of the slices that will run first, when the kind's first page can be
 * asked for twice without harm (point in time): their answers come while the mappings do, and each
 * slice's identical first request takes its own. Which slices run is read from the state, without
 * writing it (nothing is written before drift is decided), so a run over a window partly committed
 * spends no request on a committed slice. A re-check decides its slices from counts first: none then.
 */
export async function askFirstPagesEarly(planned: PlannedRun, options: EarlyPagesOptions): Promise<void> {
  const { pipeline, components, session } = planned;
  const kind = components.kinds[pipeline.source.kind];
  const firstPage = kind?.firstPage;
  if (firstPage === undefined || planned.rechecking) return;
  const { force } = options;
  const committed = await StateStore.peekCommitted(options.state);
  const first = windowSlices(planned)
    .filter((plan) => plan.retrieval === kind.paging && (force || !committed(plan.slice.id)))
    .slice(0, pipeline.limits.concurrency);
  const sent = first.filter(({ slice }) => sendEarly(session.client, firstPage(pipeline.source, slice)));
  if (sent.length > 0)
    options.log.debug(
      { slices: sent.map(({ slice }) => slice.id) },
      "First pages asked for while the mappings are on their way.",
    );
}

function sendEarly(client: ServiceClient, request: EarlyRequest): boolean {
  const send = <P extends OperationPath>(path: P, body: RequestOf<P>): boolean =>
    client.sendEarly(path, body);
  return send<OperationPath>(request.path, request.body);
}
