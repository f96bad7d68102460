// The codes of the output state kept beside the output: the state, the pinned schemas and their
// columns, and the manifest.
import type { ErrorCodeInfo } from "./error-code-info.js";

export const OUTPUT_STATE_ERRORS = {
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
  OUTPUT_OWNED: {
    exit: "invalid",
    meaning:
      "A sink's destination holds the output of another pipeline (its state or manifest names that pipeline); a pipeline never writes into another's output, `--force` included, so nothing was written.",
    action:
      "Give the pipeline a destination of its own; if it is the other pipeline renamed, give it back that name; to hand the output over, move it away first (the new pipeline then starts a fresh output).",
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
      "Two different fields would become one column after the sink's column_names, or one field takes the name of a fixed column such as _id; checked on the live mappings before anything is written or pinned. (One field the mappings give two types is one column that holds both, with a warning.)",
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
} as const satisfies Record<string, ErrorCodeInfo>;
