// The codes of reaching the service: the network, authentication and permissions, the daily quota, and
// the service's own paging contexts and batch exports.
import type { ErrorCodeInfo } from "./error-code-info.js";

export const SERVICE_ERRORS = {
  NETWORK_ERROR: {
    exit: "resumable",
    meaning:
      "The service could not be reached (DNS, refused or reset connection, no complete answer within `service.timeouts.request_ms`) through one operation's whole retry budget (6 attempts, no retry after 2 minutes); the run stopped.",
    action:
      "Check `service.base_url`, `service.auth_url` and the network; run the same command again and it resumes where it stopped.",
  },
  RESPONSE_LOST: {
    exit: "failed",
    meaning:
      "The connection broke after a paging request was sent, so the service may have moved its cursor.",
    action: "Nothing: the slice restarts from its start; this code ends a run only when it keeps happening.",
  },
  AUTH_FAILED: {
    exit: "failed",
    meaning: "The token endpoint refused the credentials, or a fresh token was refused.",
    action: "Check `service.client_id`, `service.client_secret` and `service.auth_url`.",
  },
  PERMISSION_DENIED: {
    exit: "failed",
    meaning: "The token is valid but lacks permission for the operation (HTTP 403).",
    action: "Ask for the permission, or export a kind the client may read.",
  },
  QUOTA_EXHAUSTED: {
    exit: "resumable",
    meaning: "The daily request quota is spent, or the run reached `limits.quota_reserve`.",
    action: "Run the same command after the daily quota resets; committed slices are kept.",
  },
  PAGING_CONTEXT_LOST: {
    exit: "failed",
    meaning: "A scroll or point-in-time context expired or was released by the service.",
    action: "Nothing: the slice restarts from its start; lower `limits.concurrency` if it keeps happening.",
  },
  BATCH_EXPORT_FAILED: {
    exit: "failed",
    meaning:
      "A batch export could not be completed (failed partitions, an expired token, the poll deadline).",
    action: "Run again (finished partitions are kept), or raise `service.timeouts.batch_export_ms`.",
  },
} as const satisfies Record<string, ErrorCodeInfo>;
