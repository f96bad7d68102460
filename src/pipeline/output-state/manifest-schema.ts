// The shape of a manifest, the one gate for every command that reads one back (verify,
// merge-manifests): a file that is not a manifest this version writes stops the command with the field
// at fault, instead of being checked or merged as if it were one.
import { z } from "zod";
import { EtlError } from "../../errors.js";
import { recheckSchema } from "./state-schema.js";

const count = z.number().int().nonnegative();

const manifestFileSchema = z.object({
  path: z.string().min(1),
  slice: z.string(),
  rows: count,
  bytes: count,
  sha256: z.string(),
  /** Lone surrogates written as U+FFFD in the file (docs/sinks.md); absent: none. */
  replaced_surrogates: count.optional(),
});

const manifestSliceSchema = z.object({
  id: z.string(),
  start: z.string(),
  end: z.string(),
  expected: count.nullable(),
  read: count,
  duplicates: count,
  written: count,
  files: count,
  /** Re-checks that found the service's count changed, oldest first (and what each did). */
  rechecks: z.array(recheckSchema).optional(),
  /** Written while the service may still be indexing it: the next run redoes it (see `window.settle`). */
  open: z.literal(true).optional(),
});

const schemaColumnSchema = z.object({
  name: z.string(),
  type: z.string(),
  nullable: z.boolean(),
  source: z.string().nullable(),
});

export const manifestSchema = z.object({
  version: z.literal(1),
  pipeline: z.string(),
  fingerprint: z.string(),
  run_id: z.string(),
  generated_at: z.string(),
  destination: z.string(),
  format: z.string(),
  /** The window this run exported; shards of one backfill share it. Absent in manifests written before it was recorded. */
  window: z.object({ start: z.string(), end: z.string() }).optional(),
  complete: z.boolean(),
  totals: z.object({
    slices: count,
    files: count,
    rows: count,
    bytes: count,
    expected: count.nullable(),
  }),
  slices: z.array(manifestSliceSchema),
  files: z.array(manifestFileSchema),
  /** The sink's pinned schema: every file's columns, in order (see docs/warehouse.md). */
  schema: z.array(schemaColumnSchema).readonly().optional(),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = z.infer<typeof manifestFileSchema>;
export type ManifestSlice = z.infer<typeof manifestSliceSchema>;

/** `files[2].rows`: where an issue is, as a reader of the JSON would write it. */
function fieldOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (shown, key) =>
      typeof key === "number" ? `${shown}[${key}]` : `${shown}${shown === "" ? "" : "."}${String(key)}`,
    "",
  );
}

/** The value found at `path`, short and escaped (JSON escapes every control character). */
function valueAt(raw: unknown, path: readonly PropertyKey[]): string {
  let value = raw;
  for (const key of path) {
    value =
      typeof value === "object" && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * The manifest in `text`; `where` names the file in the error.
 * @example const manifest = parseManifest(await readFile(path, "utf8"), path);
 */
export function parseManifest(text: string, where: string): Manifest {
  const fix = "rerun the pipeline (or the shard) that writes it, or move the file away";
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new EtlError("MANIFEST_UNREADABLE", `${where} is not a manifest (not JSON); ${fix}`, {
      cause: error,
    });
  }
  const result = manifestSchema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? "the document" : fieldOf(issue.path);
  const found = issue === undefined ? "" : ` (found ${valueAt(raw, issue.path)})`;
  throw new EtlError(
    "MANIFEST_UNREADABLE",
    `${where} is not a manifest this version writes: ${field}: ${issue?.message ?? "invalid"}${found}; ${fix}`,
    { cause: result.error },
  );
}
