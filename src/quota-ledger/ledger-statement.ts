// How the ledger's steps reach PostgreSQL: each one statement (a function call, run in one implicit
// transaction), sent on a connection of the pool; a reading that needs several statements gets one
// connection inside a transaction. Both count every statement sent, for the ledger's cost.
import type { QueryResultRow } from "pg";

/** Rows a statement returned. */
export interface StatementResult<R extends QueryResultRow> {
  rows: R[];
  rowCount: number | null;
}

/** Sends one statement and counts it; its failure comes back as the ledger's error. */
export type LedgerSend = <R extends QueryResultRow = QueryResultRow>(
  sql: string,
  values?: readonly unknown[],
) => Promise<StatementResult<R>>;

/** A step's input for a function taking `jsonb`: undefined fields left out, the rest as JSON. */
export function jsonArgument(value: object): string {
  return JSON.stringify(value);
}
