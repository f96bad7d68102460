// The stable error codes of mdq-export: what each means, what to do, and the exit code it ends a
// command with. Callers match on these codes (`hasCode`), never on messages or class chains;
// docs/errors.md is generated from this table (`npm run schema`) and a test fails when it drifts.

/** How an error ends a command: 2 invalid (nothing was requested), 75 resumable, 1 failed. */
export type ErrorExit = "invalid" | "resumable" | "failed";

export interface ErrorCodeInfo {
  exit: ErrorExit;
  /** What happened, in one sentence. */
  meaning: string;
  /** What the user does about it. */
  action: string;
}

export const ERROR_CATALOG = {
  CONFIG_INVALID: {
    exit: "invalid",
    meaning:
      "The pipeline file or the command line is invalid; every problem is listed with file, line and column.",
    action: "Edit the pipeline or the arguments as the message says; nothing was requested.",
  },
  REQUEST_INVALID: {
    exit: "failed",
    meaning: "A request broke the service's rules and was caught before it was sent.",
    action: "Fix the source section the message names (`validate` catches most of these offline).",
  },
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
  OUTPUT_LOCKED: {
    exit: "resumable",
    meaning:
      "Another run holds the output's lock (the message names its run id, pid, host and since when); this run stopped before touching the output.",
    action:
      "Wait for that run to end and run the command again; a lock whose process is gone or whose lease expired is taken over by itself.",
  },
  OUTPUT_LOCK_LOST: {
    exit: "resumable",
    meaning:
      "This run's output lock lease ran out while it ran (the process was paused, or renewing failed), or another run took the lock over; this run stopped before its next commit or state write and left the output as it was.",
    action:
      "Make sure one run at a time writes an output (a schedule that does not overlap, a CronJob with concurrencyPolicy: Forbid); if the other run did not finish, run the command again.",
  },
  OUTPUT_LOCK_INVALID: {
    exit: "failed",
    meaning:
      "The output's lock file cannot be read as a lock (not JSON, a missing field, a `lease_until` that is not a date), or its lease lies more than three lease periods ahead of this host's clock (the holder's clock is wrong); no run can tell whether its holder lives, so none takes it.",
    action:
      "Make sure no run is writing the output, then run the same command with `--break-lock`, which replaces such a lock (and only such a lock) with this run's.",
  },
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
  SINK_FAILED: {
    exit: "failed",
    meaning: "Writing output failed (disk, S3).",
    action: "Check the destination (space, permissions, credentials); a rerun redoes only the failed slices.",
  },
  SINK_PATH_INVALID: {
    exit: "failed",
    meaning:
      "An output path is not allowed: outside the destination, or a `to` that is not a valid location.",
    action: "Fix `sinks[].to` or `sinks[].path`.",
  },
  SINK_PATH_COLLISION: {
    exit: "failed",
    meaning: "Two files of one slice would get the same name.",
    action: "Add a placeholder that tells them apart to `sinks[].path`.",
  },
  SINK_DISCARD_FAILED: {
    exit: "failed",
    meaning: "The temporary files of a failed slice could not be removed.",
    action: "Check the destination; the next run removes the leftovers.",
  },
  SINK_ENCODE_FAILED: {
    exit: "failed",
    meaning: "A record could not be encoded in the output format.",
    action: "Report it with the record's field and type; a `select` or `drop` of the field is a workaround.",
  },
  SINK_PATH_LINK: {
    exit: "failed",
    meaning:
      "A folder or file below the output root is a symbolic link; the exporter never creates, renames or deletes through a link, which could reach files outside the output.",
    action: "Remove the link the message names, or choose another destination.",
  },
  SINK_NOT_WRITABLE: {
    exit: "failed",
    meaning:
      "A folder of the destination cannot be created (no permission, a read-only or special filesystem such as /proc).",
    action: "Choose a destination this user can write.",
  },
  SINK_NOT_READABLE: {
    exit: "failed",
    meaning: "A destination that cannot be read back (stdout) was asked for a file.",
    action: "Verify a file or S3 destination instead.",
  },
  SINK_NO_COLUMNS: {
    exit: "failed",
    meaning: "A Parquet file would have no columns.",
    action: "Keep at least one field after the transforms.",
  },
  SINK_CORRUPT_FILE: {
    exit: "failed",
    meaning: "An output file is not a readable file of its format.",
    action: "Rerun the slice with `--force`, or remove the file and run again.",
  },
  SINK_JOIN_MISMATCH: {
    exit: "failed",
    meaning:
      "A batch slice's partition files cannot be joined whole (other columns, or a column chunk without metadata); the merge reads them row by row instead, so this code is logged, never the end of a run.",
    action: "Nothing: the slice's file is still written, only more slowly.",
  },
  S3_NO_SUCH_BUCKET: {
    exit: "failed",
    meaning: "The bucket named in an `s3://` destination does not exist.",
    action: "Check the bucket name in `sinks[].to`.",
  },
  S3_NO_REGION: {
    exit: "failed",
    meaning: "No AWS region is configured for an S3 destination.",
    action: "Set `s3.region` in the sink, or AWS_REGION.",
  },
  S3_NO_CREDENTIALS: {
    exit: "failed",
    meaning: "The AWS SDK's default provider chain found no credentials.",
    action:
      "Provide credentials through the environment, AWS_PROFILE, web identity, or a container or instance role.",
  },
  S3_WRONG_REGION: {
    exit: "failed",
    meaning: "The bucket is in another region than the one configured.",
    action: "Set `s3.region` to the bucket's region, which the message names when S3 tells it.",
  },
  S3_CHECKSUM_REJECTED: {
    exit: "failed",
    meaning: "The S3-compatible store rejected the SDK's request checksums.",
    action: "Set `checksum: when_required` in the sink's `s3` options.",
  },
  S3_ACCESS_DENIED: {
    exit: "failed",
    meaning: "The credentials may not write, read, list or delete under the prefix.",
    action:
      "Grant s3:PutObject, s3:GetObject, s3:ListBucket, s3:DeleteObject and s3:AbortMultipartUpload on the prefix.",
  },
  S3_UNREACHABLE: {
    exit: "failed",
    meaning: "The S3 endpoint could not be reached.",
    action: "Check `s3.endpoint` and the network; a rerun redoes only the failed slices.",
  },
  S3_TOO_MANY_PARTS: {
    exit: "failed",
    meaning: "A file would need more than the 10,000 parts S3 allows in one multipart upload.",
    action: "Raise `s3.part_size_bytes` or lower `max_file_bytes`.",
  },
  S3_FAILED: {
    exit: "failed",
    meaning: "An S3 request failed for another reason; the message carries S3's code and status.",
    action: "Act on the S3 code in the message; a rerun redoes only the failed slices.",
  },
  STATE_UNREADABLE: {
    exit: "failed",
    meaning: "The run state beside the output was not written by this version.",
    action: "Move the state folder away, or run with `--force`.",
  },
  STATE_REFUSED: {
    exit: "failed",
    meaning:
      "A change to the run state holds a value the state's schema refuses; it was not written, so the committed state stays readable.",
    action: "Report the message with --debug output; the slice is redone by the next run.",
  },
  SCHEMA_DRIFT: {
    exit: "failed",
    meaning:
      "The service's fields changed under a sink's pinned schema in a way its policy refuses (a new field under new_fields: fail, a type change under type_changes: fail); nothing was written.",
    action:
      "Review the change the message names; accept it with schema.new_fields: add or schema.type_changes: string, or update the committed pinned schema (`mdq-export schema --json`).",
  },
  SCHEMA_UNREADABLE: {
    exit: "failed",
    meaning:
      "A pinned schema (beside the output or committed next to the pipeline) is not a schema document.",
    action: "Regenerate it with `mdq-export schema PIPELINE --sink N --json`, or move it away to pin anew.",
  },
  COLUMN_COLLISION: {
    exit: "failed",
    meaning:
      "Two of the service's fields (or one field mapped twice with two types) would become one column after the sink's column_names, or one field takes the name of a fixed column such as _id; checked on the live mappings before anything is written or pinned.",
    action:
      "Rename one of the fields with a `rename` transform, give one its own column with the sink's `column_name_overrides`, or drop it; the message names both fields.",
  },
  COLUMNS_UNBOUNDED: {
    exit: "failed",
    meaning:
      "The service maps a field whose name is longer than the sink's schema.max_name_chars, or more fields than its schema.max_columns; nothing was written.",
    action:
      "Leave the fields out with source.fields, select or drop, or raise the setting the message names.",
  },
  COLUMN_NAME_UNSAFE: {
    exit: "failed",
    meaning:
      "A column name would hold a control character (NUL included), which DDL, terminals and logs cannot take; nothing was written.",
    action:
      "Rename the field with a transform, name its column with `column_name_overrides`, or use column_names: snake_case.",
  },
  MANIFEST_MISSING: {
    exit: "failed",
    meaning: "A destination has no manifest to verify or merge.",
    action: "Run the pipeline (or every shard) first.",
  },
  MANIFEST_UNREADABLE: {
    exit: "failed",
    meaning:
      "A manifest is not valid JSON, or not a manifest this version writes (a field missing or of the wrong type; the message names the file, the field and the value found): written by something else, or damaged.",
    action: "Rerun the pipeline (or the shard) that writes it, or move the file away.",
  },
  RECONCILIATION_FAILED: {
    exit: "failed",
    meaning:
      "The records written differ from the count the service reported for the slice, after the retries.",
    action: "Run again; if it persists, report the slice and both counts.",
  },
  SLICE_FAILED: {
    exit: "failed",
    meaning: "A slice failed with an error that retrying does not cure; the cause says which.",
    action: "Fix what the cause names; committed slices are kept.",
  },
  SLICE_GAVE_UP: {
    exit: "resumable",
    meaning:
      "A request of a slice failed through its whole retry budget (the service unavailable), or the slice kept losing its paging context past `limits.max_retries_per_slice`, and the run stopped.",
    action: "Run the same command again later; it resumes.",
  },
  STOPPED: {
    exit: "resumable",
    meaning: "The run was stopped by a signal (SIGTERM, SIGINT).",
    action: "Run the same command again; it resumes.",
  },
  OUTPUT_FULL: {
    exit: "resumable",
    meaning:
      "The output's file system is full (ENOSPC), the user's disk quota is used up (EDQUOT), or the S3-compatible store said it has no space; the slice being written was not committed and the run stopped. Also stdout redirected to a full file or device.",
    action:
      "Free space at the output the message names (or raise the quota) and run the same command again; it resumes from the last committed slice.",
  },
  OUTPUT_CLOSED: {
    exit: "resumable",
    meaning:
      "The reader of stdout closed it (`run ... | head`); the run stopped without an error message, and its log line says whether a rerun resumes (a pipeline that writes only to stdout keeps no state). Commands that only print (`fields`, `plan`, `schema`) end with exit 0 instead.",
    action:
      "Nothing when the reader wanted only the first lines; otherwise check the program reading stdout.",
  },
  INTERNAL: {
    exit: "failed",
    meaning:
      "An unexpected error, not one of the listed ones (a defect); the run report and metrics give it this code.",
    action: "Run again with --debug and report the cause chain it prints.",
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** The codes by name, to match on: `hasCode(error, ERROR_CODES.QUOTA_EXHAUSTED)`. */
export const ERROR_CODES = Object.fromEntries(Object.keys(ERROR_CATALOG).map((code) => [code, code])) as {
  readonly [C in ErrorCode]: C;
};

export const ERRORS_DOC_PATH = "docs/errors.md";

const EXIT_NUMBER: Readonly<Record<ErrorExit, number>> = { invalid: 2, resumable: 75, failed: 1 };

/** Table cells: a `|` in the text would end the cell. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|");
}

/** docs/errors.md, whole: generated by `npm run schema`, compared by a drift test. */
export function errorsDocument(): string {
  const rows = Object.entries(ERROR_CATALOG).map(
    ([code, info]: [string, ErrorCodeInfo]) =>
      `| \`${code}\` | ${EXIT_NUMBER[info.exit]} | ${cell(info.meaning)} | ${cell(info.action)} |`,
  );
  return `# Error codes

<!-- Generated from src/error-codes.ts by \`npm run schema\`; do not edit by hand. -->

Every error mdq-export raises on purpose carries one of these stable codes. Scripts and callers match
on the code, never on the message: the message says what failed, the offending value and what is
allowed, and may change wording. \`--debug\` prints the code of every error in the cause chain
(\`caused by: ApiError [NETWORK_ERROR]: …\`).

The exit code is the command's: 0 done, 1 failed, 2 invalid pipeline or arguments (nothing was
requested), 75 stopped but resumable (run the same command again). An error without a code (a bug)
exits 1.

| Code | Exit | Meaning | What to do |
| --- | --- | --- | --- |
${rows.join("\n")}
`;
}
