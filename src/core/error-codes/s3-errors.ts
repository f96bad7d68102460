// The codes of S3 destinations, each named after what the user fixes: bucket, region, credentials,
// checksums, permissions, the endpoint, part sizes.
import type { ErrorCodeInfo } from "./error-code-info.js";

export const S3_ERRORS = {
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
} as const satisfies Record<string, ErrorCodeInfo>;
