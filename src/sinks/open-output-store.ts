// Opens the output store of a sink: the destination its `to` names among an environment's
// destinations, with that destination's options, holding the store to what the destination declares.
import type { OutputStore } from "../core/contracts.js";
import type { Logger } from "../logger.js";
import { SinkError } from "../errors.js";
import type { Destination, DestinationDeps } from "./destination.js";
import { pickDestination } from "./pick-destination.js";
import type { SinkConfig } from "./sink-config.js";

/** An environment's destinations by type. */
export type DestinationTable = Readonly<Record<string, Destination>>;

/** The destination of a validated sink (validation has refused a `to` that names none). */
export function destinationOf(sink: Pick<SinkConfig, "to">, destinations: DestinationTable): Destination {
  const choice = pickDestination<Destination>(sink.to, Object.values(destinations));
  if ("problem" in choice) throw new SinkError(choice.problem, { code: "SINK_PATH_INVALID" });
  return choice.destination;
}

/** @example const store = await openOutputStore(sink, { run }, components.destinations); */
export async function openOutputStore(
  config: SinkConfig,
  deps: DestinationDeps,
  destinations: DestinationTable,
): Promise<OutputStore> {
  const destination = destinationOf(config, destinations);
  const store = await destination.open(config.to, config[destination.type], deps);
  if (destination.lock === "conditional" && store.conditional === undefined) {
    await store.close().catch(() => undefined);
    throw new SinkError(
      `the ${destination.type} destination declares lock: "conditional" but its store for ${config.to} has no conditional writes`,
    );
  }
  return store;
}

/** An output no lock protects: its destination declares `lock: "none"`. */
export interface UnlockedOutput {
  destination: string;
  location: string;
}

/** The sinks whose destination cannot hold the output lock, for the run's warning. */
export function unlockedOutputs(
  sinks: readonly Pick<SinkConfig, "to">[],
  destinations: DestinationTable,
): UnlockedOutput[] {
  return sinks.flatMap((sink) => {
    const destination = destinationOf(sink, destinations);
    return destination.lock === "none" ? [{ destination: destination.type, location: sink.to }] : [];
  });
}

/** Says, for each output no lock protects, that nothing keeps a second run off it. */
export function warnUnlocked(log: Logger, outputs: readonly UnlockedOutput[]): void {
  for (const { destination, location } of outputs) {
    log.warn(
      { destination, to: location },
      `The ${destination} destination cannot hold the output lock: nothing keeps another run from writing ${location} at the same time.`,
    );
  }
}

/**
 * The sink as far as it decides which files are written: without the destination options that only
 * change how they are stored (the run fingerprint hashes this).
 */
export function sinkIdentity(config: SinkConfig, destinations: DestinationTable): Record<string, unknown> {
  const { type, outputNeutral = [] } = destinationOf(config, destinations);
  const options = config[type];
  if (options === undefined || typeof options !== "object" || options === null)
    return withoutWarehouseDefaults({ ...config });
  const kept = Object.fromEntries(Object.entries(options).filter(([key]) => !outputNeutral.includes(key)));
  const { [type]: _options, ...rest } = config;
  return withoutWarehouseDefaults(Object.keys(kept).length === 0 ? rest : { ...rest, [type]: kept });
}

/**
 * The drift policy and single column names act on the pinned schema, not on which files exist;
 * as_is (the default) is how every sink wrote before column_names existed, so their state still matches.
 */
function withoutWarehouseDefaults(identity: Record<string, unknown>): Record<string, unknown> {
  const { schema: _policy, column_name_overrides: _overrides, column_names: naming, ...rest } = identity;
  return naming === "as_is" || naming === undefined ? rest : { ...rest, column_names: naming };
}
