// Opens the output store of a sink: the destination its `to` names, with that destination's options.
import type { OutputStore } from "../core/contracts.js";
import { DESTINATIONS } from "../components/registry.js";
import { SinkError } from "../errors.js";
import type { Destination, DestinationDeps } from "./destination.js";
import { pickDestination } from "./pick-destination.js";
import type { SinkConfig } from "./schema.js";

export type OutputStoreDeps = DestinationDeps;

/** The destination of a validated sink (validation has refused a `to` that names none). */
export function destinationOf(sink: Pick<SinkConfig, "to">): Destination {
  const choice = pickDestination<Destination>(sink.to, Object.values(DESTINATIONS));
  if ("problem" in choice) throw new SinkError(choice.problem, { code: "SINK_PATH_INVALID" });
  return choice.destination;
}

export async function openOutputStore(config: SinkConfig, deps: OutputStoreDeps): Promise<OutputStore> {
  const destination = destinationOf(config);
  return destination.open(config.to, config[destination.type], deps);
}

/**
 * The sink as far as it decides which files are written: without the destination options that only
 * change how they are stored (the run fingerprint hashes this).
 */
export function sinkIdentity(config: SinkConfig): Record<string, unknown> {
  const { type, outputNeutral = [] } = destinationOf(config);
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
