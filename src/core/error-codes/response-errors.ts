// The codes of answers the client refuses at the edge: bodies that break the spec, statuses it does not
// expect, sizes past their bounds, paging that does not advance, and downloads from where it must not go.
import type { ErrorCodeInfo } from "./error-code-info.js";

export const RESPONSE_ERRORS = {
  API_ERROR: {
    exit: "failed",
    meaning:
      "The service answered something the client cannot use (a truncated body, a body that does not follow the spec).",
    action: "Retry later; if it persists, report the operation and status the message names.",
  },
  HTTP_STATUS: {
    exit: "failed",
    meaning: "The service answered an HTTP status the operation does not expect, after the retries.",
    action: "Check the service's status; the message names the operation and the status.",
  },
  PAYLOAD_TOO_LARGE: {
    exit: "failed",
    meaning:
      "The service refused a request or a page as too large (HTTP 413) even at the smallest page size.",
    action: "Lower `source.page_size` or narrow the query.",
  },
  RESPONSE_TOO_LARGE: {
    exit: "failed",
    meaning:
      "A response body passed `service.limits.max_response_bytes` where the page could not be asked for again smaller (a scroll whose cursor already moved, or an operation that does not page).",
    action:
      "Lower `source.page_size`, or raise `service.limits.max_response_bytes` if the service really sends pages that large.",
  },
  PAGING_RUNAWAY: {
    exit: "failed",
    meaning:
      "The service repeated a cursor or a page, sent pages past the total it reported, or needed more requests than the slice's total can take; the slice stopped instead of spending the quota on a loop.",
    action:
      "Report the operation the message names to the service's operators; nothing of the slice was committed.",
  },
  PARTITION_UNBOUNDED: {
    exit: "failed",
    meaning:
      "A batch partition broke a bound: a line longer than `service.limits.max_line_bytes`, more decompressed bytes than `max_decompression_ratio` allows, a file over `max_partition_bytes`, or more records than the status announced.",
    action:
      "Report the partition to the service's operators, or raise the limit the message names if the file is genuine.",
  },
  DOWNLOAD_REFUSED: {
    exit: "failed",
    meaning:
      "A batch partition link named a scheme, host or address the download policy refuses (not https, a link-local, metadata or unspecified address, or a host outside `service.download_hosts`).",
    action:
      "Check the service's batch links; add the storage host to `service.download_hosts` if it is genuine.",
  },
} as const satisfies Record<string, ErrorCodeInfo>;
