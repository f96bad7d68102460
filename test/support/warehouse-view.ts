// The warehouse's view of an export: a generated DuckDB statement (`mdq-export ddl --dialect duckdb`,
// which names the output's files itself) executed in a fresh DuckDB whose session sits in a given
// time zone, and the view's rows read back as values that compare across zones and formats. For the
// property-based tests: `readSinkView(pipelineFile, { sink, timeZone })` after a run.
import { DuckDBInstance } from "@duckdb/node-api";
import { runCli } from "./cli-harness.js";

export interface WarehouseView {
  /** The view's columns, in order, with DuckDB's name of their type (`TIMESTAMP WITH TIME ZONE`). */
  columns: { name: string; type: string }[];
  /**
   * The rows, in `orderBy` order. A TIMESTAMPTZ is its instant as ISO text in UTC (`…Z`), the same
   * in every zone; a DATE is `YYYY-MM-DD`; a BIGINT stays a bigint (exact); the rest as DuckDB gives them.
   */
  rows: Record<string, unknown>[];
}

export interface WarehouseViewQuery {
  /** The view the statement creates (the table name `ddl` printed, or `--table`). */
  view: string;
  /** The session's TimeZone, as a warehouse user's would be set (`Europe/Berlin`). */
  timeZone: string;
  /** The ORDER BY of the read (`"_id"` by default), so two views compare row by row. */
  orderBy?: string;
}

/** A value of the view as it compares: instants in UTC, dates as days. */
function comparable(value: unknown, type: string): unknown {
  if (value instanceof Date) return type === "DATE" ? value.toISOString().slice(0, 10) : value.toISOString();
  return value;
}

/**
 * Executes `ddl` in DuckDB under `timeZone` and reads the whole view.
 * @example const { rows } = await readWarehouseView(ddl.stdout, { view: "demo_parquet", timeZone: "Asia/Tokyo" })
 */
export async function readWarehouseView(ddl: string, query: WarehouseViewQuery): Promise<WarehouseView> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run(`SET TimeZone = '${query.timeZone.replaceAll("'", "''")}'`);
    const zone = await connection.runAndReadAll("SELECT current_setting('TimeZone') AS zone");
    // A zone DuckDB does not know would leave the session in another one and prove nothing.
    if (zone.getRowObjectsJS()[0]?.["zone"] !== query.timeZone)
      throw new Error(`DuckDB did not take the time zone ${query.timeZone}`);
    await connection.run(ddl);
    const reader = await connection.runAndReadAll(
      `SELECT * FROM "${query.view.replaceAll('"', '""')}" ORDER BY ${query.orderBy ?? '"_id"'}`,
    );
    const names = reader.columnNames();
    const columns = reader
      .columnTypes()
      .map((type, index) => ({ name: names[index] ?? "", type: type.toString() }));
    const rows = reader.getRowObjectsJS().map((row) => {
      const out: Record<string, unknown> = {};
      for (const column of columns) out[column.name] = comparable(row[column.name], column.type);
      return out;
    });
    return { columns, rows };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

export interface SinkViewQuery {
  /** The sink, 1 = the first. */
  sink: number;
  timeZone: string;
  /** Where the files were copied, when not where the sink wrote them (`ddl --location`). */
  location?: string;
  /** The CLI's environment; the pin beside the output is read, so none is needed after a run. */
  env?: Record<string, string>;
  orderBy?: string;
}

/** The name the statement is asked to give the view, so a caller need not know the default. */
const SINK_VIEW = "mdq_sink_view";

/**
 * A sink's output as the warehouse sees it after a run: `mdq-export ddl PIPELINE --dialect duckdb
 * --sink N` executed under `timeZone`. A `ddl` that refuses throws, with its exit code and message:
 * a layout `run` accepted must make a table.
 * @example const { rows } = await readSinkView(file, { sink: 2, timeZone: "America/New_York" })
 */
export async function readSinkView(file: string, query: SinkViewQuery): Promise<WarehouseView> {
  const location = query.location === undefined ? [] : ["--location", query.location];
  const argv = ["ddl", file, "--dialect", "duckdb", "--sink", String(query.sink), "--table", SINK_VIEW];
  const ddl = await runCli([...argv, ...location], { env: query.env ?? {} });
  if (ddl.code !== 0) throw new Error(`ddl --sink ${query.sink} exited ${ddl.code}: ${ddl.stderr}`);
  return readWarehouseView(ddl.stdout, {
    view: SINK_VIEW,
    timeZone: query.timeZone,
    ...(query.orderBy === undefined ? {} : { orderBy: query.orderBy }),
  });
}
