// The columns of rows made from hits: `_id` and `_index` beside the kind's mapped `_source` fields,
// narrowed to the projected `fields`.
import type { MappingField } from "../core/columns-from-mappings.js";
import type { Column } from "../core/contracts.js";
import type { SourceSpec } from "./source-spec.js";

/** The hit's own keys, which every record row carries first. */
const HIT_COLUMNS: readonly Column[] = [
  { name: "_id", type: "string" },
  { name: "_index", type: "string" },
];

/** Hit rows: `_id`, `_index`, then the mapped fields (multi-field companions add none: they are index views). */
export function hitColumns(mapped: readonly Column[], source: Pick<SourceSpec, "fields">): Column[] {
  const wanted =
    source.fields === undefined ? mapped : mapped.filter((column) => source.fields?.includes(column.name));
  return [...HIT_COLUMNS, ...wanted];
}

export { tableMappings } from "../api/wire/fields.js";

/** Sorted by name, as the service sorts mappings. */
export function byName(fields: readonly MappingField[]): MappingField[] {
  return [...fields].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
