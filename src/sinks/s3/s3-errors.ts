// Turns S3 SDK failures into SinkErrors that name the bucket and key and say what to do.
import { isSinkError, SinkError } from "../../errors.js";
import type { SinkCode } from "../../errors.js";
import { describeUrl, escapeControl, redactText, urlCredentials } from "../../api/redact.js";
import { outputFull, outputFullCode } from "../output-full.js";

export interface S3Target {
  bucket: string;
  key: string;
  /** The configured endpoint, for "unreachable"; AWS when undefined. */
  endpoint?: string;
  region?: string;
}

/** What the SDK's errors carry that explains a failure. */
export interface SdkErrorShape {
  name?: string;
  code?: string;
  Code?: string;
  message?: string;
  BucketRegion?: string;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined> };
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "ECONNRESET",
  "EHOSTUNREACH",
]);
const CHECKSUM_CODES = new Set([
  "BadDigest",
  "InvalidDigest",
  "XAmzContentSHA256Mismatch",
  "InvalidChecksum",
]);

/** The bucket is in another region than the client's. */
const REGION_CODES = new Set([
  "PermanentRedirect",
  "AuthorizationHeaderMalformed",
  "IllegalLocationConstraintException",
]);
const ACCESS_CODES = new Set(["AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "Forbidden"]);

/** The abort of a run stays an abort: the sink recognises it and does not report it as an S3 failure. */
function isAbortError(error: unknown): boolean {
  return (error as SdkErrorShape | undefined)?.name === "AbortError";
}

/**
 * The SDK's errors carry the raw HTTP exchange (`$response`), request headers and signature included;
 * the cause we keep holds only what explains the failure, so no `--debug` print can leak a signature.
 */
function redactedCause(e: SdkErrorShape, name: string, message: string): Error {
  const cause = new Error(message);
  cause.name = name || "S3Error";
  Object.assign(cause, {
    code: e.code,
    httpStatusCode: e.$metadata?.httpStatusCode,
    requestId: (e.$metadata as { requestId?: string } | undefined)?.requestId,
  });
  return cause;
}

/** `action` is a verb phrase such as "uploading part 3 of"; the message continues with the object. */
export function describeS3Error(action: string, target: S3Target, error: unknown): Error {
  if (isAbortError(error) || isSinkError(error)) return error as Error;
  const e = (typeof error === "object" && error !== null ? error : {}) as SdkErrorShape;
  const name = e.Code ?? e.name ?? "";
  const status = e.$metadata?.httpStatusCode;
  // Stores echo request headers and the signed request in messages: no signature or session token
  // (and no terminal control character) goes further.
  const endpointSecrets = target.endpoint === undefined ? [] : urlCredentials(target.endpoint);
  const message = escapeControl(redactText(e.message ?? String(error), endpointSecrets));
  const where = `s3://${target.bucket}/${target.key}`;
  const fail = (code: SinkCode, why: string): SinkError =>
    new SinkError(`${action} ${where} failed: ${why}`, { code, cause: redactedCause(e, name, message) });

  if (name === "NoSuchBucket") {
    return fail(
      "S3_NO_SUCH_BUCKET",
      `the bucket "${target.bucket}" does not exist (check the name in \`to:\`)`,
    );
  }
  if (/region is missing/i.test(message)) {
    return fail("S3_NO_REGION", "no AWS region is configured; set s3.region in the sink or AWS_REGION");
  }
  if (name === "CredentialsProviderError" || /could not load credentials/i.test(message)) {
    return fail(
      "S3_NO_CREDENTIALS",
      "the SDK's default provider chain found no credentials (environment, AWS_PROFILE, web identity, container or instance role)",
    );
  }
  const bucketRegion = e.BucketRegion ?? e.$response?.headers?.["x-amz-bucket-region"];
  if (REGION_CODES.has(name) || status === 301) {
    const hint =
      bucketRegion === undefined ? "" : `; the bucket is in ${bucketRegion}, set s3.region: ${bucketRegion}`;
    return fail(
      "S3_WRONG_REGION",
      `the bucket "${target.bucket}" is not in region ${target.region ?? "(default)"}${hint}`,
    );
  }
  if (CHECKSUM_CODES.has(name) || /checksum|crc32|x-amz-content-sha256|x-amz-sdk-checksum/i.test(message)) {
    return fail(
      "S3_CHECKSUM_REJECTED",
      `the store rejected the request checksum (${name || status}: ${message}); stores that do not support the SDK's default CRC32 checksums need \`checksum: when_required\` in the sink's s3 options`,
    );
  }
  if (ACCESS_CODES.has(name) || status === 403) {
    return fail(
      "S3_ACCESS_DENIED",
      `access denied to bucket "${target.bucket}" (${name || status}); the credentials from the default chain need s3:PutObject, s3:GetObject, s3:ListBucket, s3:DeleteObject and s3:AbortMultipartUpload on this prefix`,
    );
  }
  const networkCode = e.code ?? (error as { cause?: { code?: string } } | undefined)?.cause?.code;
  if ((networkCode !== undefined && NETWORK_CODES.has(networkCode)) || name === "TimeoutError") {
    return fail(
      "S3_UNREACHABLE",
      `the endpoint ${target.endpoint === undefined ? "of AWS S3" : describeUrl(target.endpoint)} cannot be reached (${networkCode ?? name}); check s3.endpoint and the network`,
    );
  }
  const full = outputFullCode(error);
  if (name === "XMinioStorageFull" || status === 507 || full !== undefined) {
    const cause = redactedCause(e, name, message);
    return outputFull(`s3://${target.bucket}`, `${action} ${where}`, name || full || `HTTP ${status}`, cause);
  }
  return fail(
    "S3_FAILED",
    `${name || "error"}${status === undefined ? "" : ` (HTTP ${status})`}: ${message}`,
  );
}
