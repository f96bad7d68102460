// The codes of writing and reading files in any destination: paths, encoding, commits, corrupt files.
import type { ErrorCodeInfo } from "./error-code-info.js";

export const SINK_ERRORS = {
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
  SINK_VALUE_NOT_INT64: {
    exit: "failed",
    meaning:
      "A value of an int64 column (a `long` field) is a number no int64 holds: a fraction, or beyond -9223372036854775808..9223372036854775807 (numeric text included). It is never rounded or truncated: the slice fails and none of it is committed. The message names the column and the value.",
    action:
      "Drop the field (`drop`) or ask the service's owners why a `long` field holds it; the slices already committed are kept.",
  },
  SINK_VALUE_NOT_INT32: {
    exit: "failed",
    meaning:
      "A value of an int32 column (an `integer` field) is a number no int32 holds: a fraction, or beyond -2147483648..2147483647 (numeric text included). It is never truncated or wrapped: the slice fails and none of it is committed. The message names the column and the value.",
    action:
      "Declare the column `int64` in the sink's `columns` (or `double` for fractions), drop the field (`drop`), or ask the service's owners why an `integer` field holds it; the slices already committed are kept.",
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
} as const satisfies Record<string, ErrorCodeInfo>;
