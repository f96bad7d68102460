// The field mappings per kind and, for logs and metrics, per application and app_type: consistent with
// what the generator emits, companions as separate entries, sorted by name.
import { KIND_FIELDS, tableMappings } from "../api/wire/fields.js";
import type { GeneratedKind } from "./generated-kind.js";
import { KIND_DATA } from "./kind-data.js";
import { changeMappings } from "./field-changes.js";
import type { FieldChanges } from "./field-changes.js";
import type { MappingField } from "../core/columns-from-mappings.js";
import { PLAIN_DATA, withAwkwardMappings } from "./awkward-data.js";
import type { AwkwardProfile } from "./awkward-data.js";

/** The kind's mappings (for an app type), with the awkward data's fields, after any field changes. */
export function mappingFields(
  kind: GeneratedKind,
  appType?: string,
  changes?: FieldChanges,
  awkward: AwkwardProfile = PLAIN_DATA,
): MappingField[] {
  const fields = tableMappings(KIND_FIELDS[kind].filter((field) => KIND_DATA[kind].mapped(field, appType)));
  return changeMappings(withAwkwardMappings(fields, kind, appType, awkward), changes);
}
