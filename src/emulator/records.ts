// Builders of the `_source` of one generated record per kind, from its own random stream. Every field
// the spec lists for the kind appears (some records leave optional ones missing or null on purpose).
import { isoTime, messageText, nameText } from "./awkward.js";
import { pick } from "./random.js";
import type { Random } from "./random.js";
import type { Stream } from "./streams.js";

export type Source = Record<string, unknown>;

export interface RecordInput {
  random: Random;
  ts: number;
  stream: Stream;
  /** Position of the record in its bucket; keeps derived ids unique. */
  n: number;
  id: string;
}

const CLIENTS = ["Contoso", "Fabrikam", "Initech", "Umbrella"];
const ENVIRONMENTS = ["production", "staging", "development"];
const WORKFLOWS = ["invoice-sync", "user-provisioning", "backup", "report-export", "patching"];
const TICKET_TYPES = ["SR_ITEM", "SR_TASK", "INCIDENT"];

function atr(input: RecordInput): Source {
  const { random, stream } = input;
  return {
    domain_name: stream.scope,
    infra_type: stream.appType,
    client: pick(random, CLIENTS),
    environment: pick(random, ENVIRONMENTS),
  };
}

export function jobSource(input: RecordInput): Source {
  const { random, ts, n, id } = input;
  const state = random() < 0.8 ? "DONE" : random() < 0.6 ? "FAILED" : "REJECTED";
  const elapsed = state === "REJECTED" ? null : Math.round(random() * 36_000) / 10;
  const start = ts - Math.round((elapsed ?? 0) * 1000);
  const workflow = pick(random, WORKFLOWS);
  const time = isoTime(ts);
  const source: Source = {
    "@timestamp": time,
    job: {
      name: nameText(random, `job-${workflow}`, n % 97),
      id,
      state,
      execution_time: { start: isoTime(start), end: state === "REJECTED" ? null : time, elapsed },
    },
    workflow: { name: workflow, id: `wf-${Math.floor(random() * 1e6)}` },
    workload: { id: `wl-${Math.floor(random() * 1e8)}`, state: state === "DONE" ? "DONE" : "FAILED" },
    atr: atr(input),
  };
  if (random() < 0.9)
    source["ticket"] = {
      number: `RITM${1_000_000 + Math.floor(random() * 9e6)}`,
      type: pick(random, TICKET_TYPES),
    };
  return source;
}

export function ticketSource(input: RecordInput): Source {
  const { random, ts, n, id } = input;
  const state = pick(random, ["Requested", "In Progress", "Closed", "Closed", "Cancelled"]);
  const created = ts - Math.floor(random() * 7 * 86_400_000);
  const time = isoTime(ts);
  return {
    "@timestamp": time,
    ticket: {
      id,
      number: `INC${2_000_000 + (n % 1_000_000)}${Math.floor(random() * 10)}`,
      type: pick(random, TICKET_TYPES),
      short_description: nameText(random, "Disk usage above threshold on host", n % 50),
      description: random() < 0.1 ? null : messageText(random, n),
      state,
      priority: pick(random, ["1 - Critical", "2 - High", "3 - Moderate", "4 - Low"]),
      resolved: state === "Closed",
      mapped: random() < 0.7,
      created_on: isoTime(created),
      last_updated_on: time,
    },
    atr: atr(input),
  };
}

export function workloadSource(input: RecordInput): Source {
  const { random, ts, stream } = input;
  const source: Source = {
    "@timestamp": isoTime(ts),
    workflow: { name: pick(random, WORKFLOWS) },
    atr: { domain_name: stream.scope, infra_type: stream.appType },
    workload: {
      state: random() < 0.85 ? "DONE" : "FAILED",
      trigger: pick(random, ["schedule", "manual", "api", "event"]),
      execution_time: { elapsed: random() < 0.05 ? null : Math.round(random() * 500_000) / 100 },
    },
  };
  if (random() < 0.8) source["ticket"] = { type: pick(random, TICKET_TYPES) };
  return source;
}
