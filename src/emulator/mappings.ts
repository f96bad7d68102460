// The field mappings per kind and, for logs and metrics, per application and app_type: consistent with
// what the generator emits, companions as separate entries, sorted by name.
import { KIND_FIELDS } from "../api/wire/fields.js";
import type { FieldSpec } from "../api/wire/fields.js";
import type { GeneratedKind } from "./options.js";
import { changeMappings } from "./field-changes.js";
import type { FieldChanges, MappingField } from "./field-changes.js";

const SERVERLESS_ONLY = new Set(["function_name", "function_memory_size", "event.origin"]);
const DOMAIN_LOGS_ONLY = new Set(["logLevel", "regex.extractions.logLevel", "atr.domain_name"]);
const KUBERNETES_ONLY = new Set(["atr.infra_data.cluster", "atr.infra_data.namespace"]);

function included(kind: GeneratedKind, appType: string | undefined, field: FieldSpec): boolean {
  if (kind === "logs") {
    return appType === "serverless" ? !DOMAIN_LOGS_ONLY.has(field.name) : !SERVERLESS_ONLY.has(field.name);
  }
  if (kind === "metrics" && appType === "ec2") return !KUBERNETES_ONLY.has(field.name);
  return true;
}

/** The kind's mappings (for an app type), after any field changes. */
export function mappingFields(kind: GeneratedKind, appType?: string, changes?: FieldChanges): MappingField[] {
  const fields: MappingField[] = [];
  for (const field of KIND_FIELDS[kind]) {
    if (!included(kind, appType, field)) continue;
    fields.push({ name: field.name, type: field.type });
    for (const companion of field.companions ?? []) {
      fields.push({ name: `${field.name}.${companion.suffix}`, type: companion.type });
    }
  }
  return changeMappings(fields, changes);
}
