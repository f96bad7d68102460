// The billing summary of one domain over a date-math window: seeded by the domain, so a domain keeps
// its client, contact and WBS from one query to the next.
import { createRandom, hashString, pick } from "./random.js";
import type { Source } from "./records.js";

export interface SummaryInput {
  seed: number;
  domain: string;
  timeRange: string;
  startMs: number;
  endMs: number;
  /** The records the summary counts (billing: the domain's tickets in the window). */
  count: number;
}

/** Billing summary of one domain: `ticket_count` is the tickets the emulator holds for it in the window. */
export function billingSummary(input: SummaryInput): Source {
  const { domain, timeRange } = input;
  const random = createRandom(hashString(input.seed, domain));
  return {
    ticket_count: input.count,
    domain,
    time_range: timeRange,
    client: pick(random, ["Contoso", "Fabrikam", "Initech", "Umbrella"]),
    live_status: pick(random, ["live", "live", "onboarding"]),
    WBS: `WBS-${Math.floor(random() * 1e6)
      .toString()
      .padStart(6, "0")}`,
    created: new Date(Date.UTC(2023, 0, 1) + Math.floor(random() * 7e10)).toISOString(),
    infra_type: pick(random, ["ec2", "kubernetes"]),
    billing_type: pick(random, ["fixed", "consumption"]),
    point_of_contact: pick(random, ["Ana Müller", "José O'Neil", "李 伟"]),
    window_start: new Date(input.startMs).toISOString(),
    window_end: new Date(input.endMs).toISOString(),
  };
}
