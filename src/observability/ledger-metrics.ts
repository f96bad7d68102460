// The quota ledger's series of a run: cumulative values, set after each round trip to the ledger. Each
// carries the run's `priority` beside its `pipeline`, so a dashboard shows what every priority of the
// fleet reserved and spent (deploy/grafana/mdq-export-fleet-dashboard.json).
import { Gauge } from "prom-client";
import type { Registry } from "prom-client";
import type { QuotaLedgerNumbers } from "../core/run-observer.js";

/** Registers the gauges in `registers` and returns the function that sets them. */
export function ledgerMetrics(registers: Registry[]): (numbers: QuotaLedgerNumbers) => void {
  const labelNames = ["priority"] as const;
  const remaining = new Gauge({
    name: "mdq_export_quota_ledger_remaining",
    help: "Daily requests the quota ledger says the fleet has left (the service's last report, less what runs reserved since).",
    labelNames,
    registers,
  });
  const reserved = new Gauge({
    name: "mdq_export_quota_ledger_reserved",
    help: "Requests this run reserved from the quota ledger so far.",
    labelNames,
    registers,
  });
  const spent = new Gauge({
    name: "mdq_export_quota_ledger_spent",
    help: "Requests this run spent (answered) of those it reserved from the quota ledger.",
    labelNames,
    registers,
  });
  const roundTrips = new Gauge({
    name: "mdq_export_quota_ledger_round_trips",
    help: "Round trips this run cost the quota ledger: every statement sent (each step one: opening, joining, its claim, blocks, lease renewals, the end) and every connection opened.",
    labelNames,
    registers,
  });
  const waitSeconds = new Gauge({
    name: "mdq_export_quota_wait_seconds",
    help: "Time this run's requests spent waiting for the quota ledger's permit.",
    labelNames,
    registers,
  });
  return (numbers) => {
    const labels = { priority: numbers.priority };
    if (numbers.remaining !== undefined) remaining.set(labels, numbers.remaining);
    reserved.set(labels, numbers.reserved);
    spent.set(labels, numbers.spent);
    roundTrips.set(labels, numbers.roundTrips);
    waitSeconds.set(labels, numbers.waitSeconds);
  };
}
