// The table definition of a sink's output in one of the dialects `mdq-export ddl` prints.
import { athenaDdl } from "./athena.js";
import { bigqueryDdl } from "./bigquery.js";
import { duckdbDdl } from "./duckdb.js";
import type { TableLayout } from "./table-layout.js";

export const DIALECTS = ["duckdb", "athena", "bigquery"] as const;
export type Dialect = (typeof DIALECTS)[number];

interface DdlOptions {
  /** BigQuery dataset of the table. */
  dataset: string;
}

const GENERATORS: Readonly<Record<Dialect, (layout: TableLayout, options: DdlOptions) => string>> = {
  duckdb: duckdbDdl,
  athena: athenaDdl,
  bigquery: (layout, options) => bigqueryDdl(layout, options.dataset),
};

/**
 * @example generateDdl("duckdb", tableLayout({ ... }), { dataset: "mdq" })
 */
export function generateDdl(dialect: Dialect, layout: TableLayout, options: DdlOptions): string {
  return GENERATORS[dialect](layout, options);
}
