// Kinds whose mappings depend on the app type (logs, metrics) ask once per app type the source can
// return and join the answers: a field any of them maps is a column.
import type { MappingField } from "../core/columns-from-mappings.js";
import { byName } from "./hit-columns.js";

/**
 * The union of `fetch(appType)` over the app types, sorted by name: each name and type once. A field
 * two app types map with two types stays twice, so that `readMappings` gives its column a type that
 * holds both instead of letting one app type's type decide how the other's values are written.
 */
export async function mappingsPerAppType(
  appTypes: readonly string[],
  fetch: (appType: string) => Promise<readonly MappingField[]>,
): Promise<MappingField[]> {
  const found = new Map<string, MappingField>();
  for (const appType of new Set(appTypes)) {
    for (const field of await fetch(appType)) {
      const key = `${field.name}\u0000${field.type}`;
      if (!found.has(key)) found.set(key, field);
    }
  }
  return byName([...found.values()]);
}
