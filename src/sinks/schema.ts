// The YAML schema of one sink: a format, a destination and how files are named and rolled.
import { z } from "zod";
import { compilePathTemplate } from "./path-template.js";

export const s3OptionsSchema = z
  .strictObject({
    region: z.string().optional().describe("AWS region of the bucket; the SDK's default chain when omitted."),
    endpoint: z
      .url()
      .optional()
      .describe("Endpoint of an S3-compatible store (MinIO, Ceph, R2); AWS when omitted."),
    force_path_style: z
      .boolean()
      .default(false)
      .describe("Address buckets as endpoint/bucket (most S3-compatible stores need this)."),
    storage_class: z
      .enum([
        "STANDARD",
        "STANDARD_IA",
        "ONEZONE_IA",
        "INTELLIGENT_TIERING",
        "GLACIER_IR",
        "REDUCED_REDUNDANCY",
      ])
      .optional()
      .describe("Storage class of the objects written."),
    server_side_encryption: z
      .enum(["AES256", "aws:kms"])
      .optional()
      .describe("SSE-S3 (AES256) or SSE-KMS (aws:kms, with kms_key_id)."),
    kms_key_id: z.string().optional().describe("KMS key id or ARN for aws:kms encryption."),
    tags: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        "Object tags (when any are given, the run id is added as mdq-run-id); some stores, such as R2, refuse tags.",
      ),
    metadata: z
      .record(z.string(), z.string())
      .default({})
      .describe("User metadata; the run id is added as mdq-run-id."),
    checksum: z
      .enum(["when_supported", "when_required"])
      .default("when_supported")
      .describe("The SDK's default CRC32 checksums, or when_required for stores that reject them."),
    part_size_bytes: z
      .number()
      .int()
      .min(5 * 1024 * 1024)
      .default(8 * 1024 * 1024)
      .describe("Multipart part size; memory per file is about part_size_bytes × queue_size."),
    queue_size: z.number().int().min(1).max(16).default(4).describe("Parts uploaded in parallel per file."),
  })
  .superRefine((value, ctx) => {
    if (value.kms_key_id !== undefined && value.server_side_encryption !== "aws:kms") {
      ctx.addIssue({
        code: "custom",
        path: ["kms_key_id"],
        message: 'kms_key_id needs server_side_encryption: "aws:kms"',
      });
    }
  })
  .describe("Options for s3:// destinations.");

export const sinkSchema = z
  .strictObject({
    format: z.enum(["parquet", "ndjson"]).describe("How rows become bytes."),
    to: z.string().min(1).describe("A directory, s3://bucket/prefix, or - for stdout (ndjson only)."),
    path: z
      .string()
      .optional()
      .describe(
        "File name template relative to `to`: {date} {hour} (slice start, UTC) {slice} {seq} {ext} {run_id} and {field.name} from record values (Hive-style partitions, escaped so they stay inside `to`). Must contain {slice}, and {seq} when files roll. Default: {slice}-{seq}.{ext}",
      ),
    gzip: z.boolean().default(false).describe("Compress NDJSON with gzip (adds .gz)."),
    compression: z.enum(["snappy", "uncompressed"]).default("snappy").describe("Parquet page compression."),
    row_group_rows: z
      .number()
      .int()
      .min(1000)
      .default(100_000)
      .describe("Rows per Parquet row group (warehouse readers like 100k to 1M)."),
    max_rows_per_file: z.number().int().min(1).optional().describe("Start a new file after this many rows."),
    max_file_bytes: z
      .number()
      .int()
      .min(1024)
      .optional()
      .describe("Start a new file once this many bytes are written."),
    s3: s3OptionsSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.to === "-" && value.format !== "ndjson") {
      ctx.addIssue({ code: "custom", path: ["format"], message: "stdout (to: -) takes format ndjson only" });
    }
    if (value.gzip && value.format !== "ndjson") {
      ctx.addIssue({ code: "custom", path: ["gzip"], message: "gzip applies to format ndjson only" });
    }
    if (value.path !== undefined) checkPathTemplate(value, ctx);
    if (value.s3 !== undefined && !value.to.startsWith("s3://")) {
      ctx.addIssue({
        code: "custom",
        path: ["s3"],
        message: "s3 options need a destination s3://bucket/prefix",
      });
    }
    if (value.to.startsWith("s3://") && !/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(value.to)) {
      ctx.addIssue({ code: "custom", path: ["to"], message: `"${value.to}" is not s3://bucket/prefix` });
    }
  })
  .describe("One output: format, destination, names and rolling.");

/** Rules on `path` that keep names deterministic per slice and unique within it. */
function checkPathTemplate(
  value: {
    path?: string | undefined;
    to: string;
    max_rows_per_file?: number | undefined;
    max_file_bytes?: number | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const path = value.path ?? "";
  let fields: readonly string[] = [];
  try {
    ({ fields } = compilePathTemplate(path));
  } catch (error) {
    ctx.addIssue({ code: "custom", path: ["path"], message: (error as Error).message });
    return;
  }
  if (!path.includes("{slice}")) {
    ctx.addIssue({
      code: "custom",
      path: ["path"],
      message: `"${path}" has no {slice}: two slices would write the same names, and a redone slice could not replace its own files`,
    });
  }
  if (
    (value.max_rows_per_file !== undefined || value.max_file_bytes !== undefined) &&
    !path.includes("{seq}")
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["path"],
      message: `"${path}" has no {seq}, which rolled files need`,
    });
  }
  if (value.to === "-" && fields.length > 0) {
    ctx.addIssue({
      code: "custom",
      path: ["path"],
      message: `stdout (to: -) is one stream; record fields in the path (${fields.join(", ")}) have no meaning there`,
    });
  }
}

export type SinkConfig = z.infer<typeof sinkSchema>;
export type S3Options = z.infer<typeof s3OptionsSchema>;
