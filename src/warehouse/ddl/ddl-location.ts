// Where a warehouse reads a sink's files: the sink's destination says it (Destination.ddlLocation),
// so no dialect assumes a storage. `--location` names where the files were copied: a location one of
// the environment's destinations takes is asked of that destination; any other is taken as written.
import type { Destination } from "../../sinks/destination.js";
import { pickDestination } from "../../sinks/pick-destination.js";
import type { Dialect } from "./ddl.js";

/**
 * @example ddlLocation("duckdb", "./out/jobs", undefined, Object.values(components.destinations)) // "/abs/out/jobs"
 * @throws Error naming the destination when the dialect cannot read its storage
 */
export function ddlLocation(
  dialect: Dialect,
  to: string,
  explicit: string | undefined,
  destinations: readonly Destination[],
): string {
  const location = explicit ?? to;
  const choice = pickDestination(location, destinations);
  if ("problem" in choice) {
    if (explicit !== undefined) return explicit;
    throw new Error(choice.problem);
  }
  const { destination } = choice;
  const read = destination.ddlLocation?.(location, dialect);
  if (read !== undefined) return read.replace(/\/+$/, "");
  throw new Error(
    `${dialect} does not read the ${destination.type} destination's files ("${location}"); copy them where it reads and pass --location`,
  );
}
