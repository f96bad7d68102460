// The codes of a run sharing its daily quota through the quota ledger (docs/fleet.md): the ledger out
// of reach, a run that gives way to a higher-priority one, a ledger this exporter cannot read.
import type { ErrorCodeInfo } from "./error-code-info.js";

export const QUOTA_LEDGER_ERRORS = {
  QUOTA_LEDGER_UNREACHABLE: {
    exit: "resumable",
    meaning:
      "The quota ledger (`limits.quota.ledger` or MDQ_QUOTA_LEDGER) could not be reached: at the start, before any request (unless `limits.quota.alone_when_unreachable` is true), or during the run, which then stopped once the requests it had reserved were spent.",
    action:
      "Check that the PostgreSQL server the message names is up and reachable with the URL's credentials, and run the same command again; it resumes.",
  },
  QUOTA_YIELDED: {
    exit: "resumable",
    meaning:
      "A higher-priority pipeline claims the quota that is left (its plan or its standing claim): this run finished the slices it had started and stopped; the message names the pipeline it gave way to.",
    action: "Nothing: the run resumes on its next schedule, or after the daily quota renews.",
  },
  QUOTA_LEDGER_INCOMPATIBLE: {
    exit: "failed",
    meaning: "The quota ledger's schema is newer than this exporter knows; a newer exporter migrated it.",
    action: "Upgrade this exporter to the version the rest of the fleet runs.",
  },
} as const satisfies Record<string, ErrorCodeInfo>;
