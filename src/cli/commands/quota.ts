// `mdq-export quota`: what the quota ledger holds for a client: the quota day, the remaining count,
// and per run its pipeline, priority, claim, reservation and spending; the standing claims. With a
// pipeline, its ledger and client, and its standing claim written (so it holds before its first run).
import { loadPipeline } from "../../config/load-pipeline.js";
import { openQuotaLedger } from "../../quota-ledger/quota-ledger.js";
import type { LedgerClient, LedgerSnapshot } from "../../quota-ledger/ledger-snapshot.js";
import { escapedName } from "../../warehouse/show-name.js";
import { argumentError, parseCommandArgs, showedHelp } from "../command-options.js";
import { EXIT } from "../io.js";
import type { Command } from "../io.js";

const QUOTA_USAGE = `Usage: mdq-export quota [PIPELINE.yaml] [--ledger URL] [--client ID] [--json]

Shows the quota ledger the runs of a fleet share (docs/fleet.md): per client the quota day, the
remaining count, each run of the day with its pipeline, priority, claim, reserved requests (held)
and spending, and the standing claims. With a pipeline file, its ledger (limits.quota.ledger, else
MDQ_QUOTA_LEDGER) and its client are used, and its standing claim (limits.quota.standing) is written
to the ledger, so lower-priority runs leave it alone from now on, before its first run.

Options:
  --ledger URL   the ledger's postgres:// URL (default: the pipeline's, else MDQ_QUOTA_LEDGER)
  --client ID    show only this client (default: the pipeline's client, else every client)
  --json         print JSON
  -h, --help     show this help`;

function table(rows: readonly (readonly string[])[]): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

const show = (value: number | undefined): string => (value === undefined ? "-" : String(value));

function describeClient(client: LedgerClient): string {
  const lines = [
    `Client ${escapedName(client.clientId)}: quota day ${client.day} (since ${client.dayStartedAt})`,
    `  remaining: ${show(client.remaining)} (the service last reported ${show(client.reported)}${
      client.reportedAt === undefined ? "" : ` at ${client.reportedAt}`
    })`,
  ];
  if (client.runs.length > 0) {
    const rows = [
      ["PRIORITY", "PIPELINE", "RUN", "OUTCOME", "CLAIM", "HELD", "SPENT", "YIELDED TO"],
      ...client.runs.map((run) => [
        run.priority,
        escapedName(run.pipeline),
        escapedName(run.runId),
        run.outcome,
        String(run.claim),
        String(run.held),
        String(run.spent),
        run.yieldedTo === undefined ? "" : escapedName(run.yieldedTo),
      ]),
    ];
    lines.push("", table(rows));
    const byPipeline = new Map<string, { priority: string; held: number; spent: number }>();
    for (const run of client.runs) {
      const entry = byPipeline.get(run.pipeline) ?? { priority: run.priority, held: 0, spent: 0 };
      entry.held += run.held;
      entry.spent += run.spent;
      byPipeline.set(run.pipeline, entry);
    }
    lines.push(
      "",
      table([
        ["PRIORITY", "PIPELINE", "HELD", "SPENT"],
        ...[...byPipeline].map(([pipeline, entry]) => [
          entry.priority,
          escapedName(pipeline),
          String(entry.held),
          String(entry.spent),
        ]),
      ]),
    );
  } else lines.push("  no runs this quota day");
  if (client.standing.length > 0) {
    lines.push(
      "",
      "Standing claims:",
      table([
        ["PRIORITY", "PIPELINE", "REQUESTS", "PROTECTING", "SPENT TODAY", "FINISHED TODAY"],
        ...client.standing.map((claim) => [
          claim.priority,
          escapedName(claim.pipeline),
          claim.requests === undefined ? `auto (${show(claim.lastSpent)})` : String(claim.requests),
          String(claim.protecting),
          String(claim.spentToday),
          claim.finishedToday ? "yes" : "no",
        ]),
      ]),
    );
  }
  return lines.join("\n");
}

export const quotaCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      help: { type: "boolean", short: "h" },
      ledger: { type: "string" },
      client: { type: "string" },
      json: { type: "boolean" },
    },
    QUOTA_USAGE,
  );
  if (showedHelp(values, io, QUOTA_USAGE)) return EXIT.ok;
  if (positionals.length > 1)
    throw argumentError(
      "arguments",
      `give at most one pipeline file, not ${positionals.length}`,
      QUOTA_USAGE,
    );
  const file = positionals[0];
  const pipeline =
    file === undefined ? undefined : await loadPipeline(file, { env: io.env, components: io.components });
  const url = values.ledger ?? pipeline?.limits.quota.ledger ?? io.env["MDQ_QUOTA_LEDGER"];
  if (url === undefined || url === "") {
    const message =
      "no quota ledger: give --ledger URL, a pipeline with limits.quota.ledger, or MDQ_QUOTA_LEDGER";
    throw argumentError("--ledger", message, QUOTA_USAGE);
  }
  const pipelineClient = pipeline?.service.mode === "remote" ? pipeline.service.client_id : undefined;
  const clientId = values.client ?? pipelineClient;
  const ledger = await openQuotaLedger(url);
  try {
    if (pipeline !== undefined && clientId !== undefined && pipeline.limits.quota.standing !== undefined) {
      const { priority, standing } = pipeline.limits.quota;
      await ledger.registerStanding(clientId, pipeline.name, priority, standing);
    }
    const snapshot: LedgerSnapshot = await ledger.snapshot(clientId);
    if (values.json === true) {
      io.stdout.write(`${JSON.stringify({ ledger: ledger.describe, ...snapshot }, null, 2)}\n`);
      return EXIT.ok;
    }
    io.stdout.write(`Quota ledger ${ledger.describe}\n`);
    if (snapshot.clients.length === 0) io.stdout.write("No client has used this ledger yet.\n");
    for (const client of snapshot.clients) io.stdout.write(`\n${describeClient(client)}\n`);
    return EXIT.ok;
  } finally {
    await ledger.close();
  }
};
