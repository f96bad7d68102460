// The options of s3:// destinations, under the sink's `s3:` key.
import { z } from "zod";
import { wholeNumber } from "../../core/whole-number.js";

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
    part_size_bytes: wholeNumber(5 * 1024 * 1024)
      .default(8 * 1024 * 1024)
      .describe("Multipart part size; memory per file is about part_size_bytes × queue_size."),
    queue_size: wholeNumber(1).max(16).default(4).describe("Parts uploaded in parallel per file."),
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

export type S3Options = z.infer<typeof s3OptionsSchema>;
