// Kinds whose mappings depend on the app type (logs, metrics) ask once per app type the source can
// return and join the answers: a field any of them maps is a column.
import type { MappingField } from "../formats/columns-from-mappings.js";
import { byName } from "./hit-columns.js";

/** The union of `fetch(appType)` over the app types (first definition of a name wins), sorted by name. */
export async function mappingsPerAppType(
  appTypes: readonly string[],
  fetch: (appType: string) => Promise<readonly MappingField[]>,
): Promise<MappingField[]> {
  const found = new Map<string, MappingField>();
  for (const appType of new Set(appTypes)) {
    for (const field of await fetch(appType)) if (!found.has(field.name)) found.set(field.name, field);
  }
  return byName([...found.values()]);
}
