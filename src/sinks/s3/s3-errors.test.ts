import { describe, expect, it } from "vitest";
import { SinkError } from "../../errors.js";
import { describeS3Error } from "./s3-errors.js";

const target = {
  bucket: "exports",
  key: "jobs/part-0000.parquet",
  endpoint: "https://minio.local:9000",
  region: "eu-west-1",
};

/** Shapes as the SDK raises them (a ServiceException's name, Code and $metadata; a Node network error). */
function sdkError(name: string, status: number, message = name, extra: Record<string, unknown> = {}): Error {
  const error = new Error(message);
  error.name = name;
  return Object.assign(error, { Code: name, $metadata: { httpStatusCode: status }, ...extra });
}

function describe_(error: unknown): SinkError {
  const result = describeS3Error("uploading", target, error);
  expect(result).toBeInstanceOf(SinkError);
  expect(result.message).toContain("s3://exports/jobs/part-0000.parquet");
  return result as SinkError;
}

describe("describeS3Error", () => {
  it("access denied", () => {
    const error = describe_(sdkError("AccessDenied", 403, "Access Denied"));
    expect(error.code).toBe("S3_ACCESS_DENIED");
    expect(error.message).toContain('bucket "exports"');
  });

  it("wrong region, with the bucket's region when the store says it", () => {
    const error = describe_(sdkError("PermanentRedirect", 301, "redirect", { BucketRegion: "us-west-2" }));
    expect(error.code).toBe("S3_WRONG_REGION");
    expect(error.message).toContain("s3.region: us-west-2");
  });

  it("checksum rejected, with the when_required hint", () => {
    const error = describe_(sdkError("InvalidRequest", 400, "x-amz-checksum-crc32 is not supported"));
    expect(error.code).toBe("S3_CHECKSUM_REJECTED");
    expect(error.message).toContain("checksum: when_required");
    expect(describe_(sdkError("XAmzContentSHA256Mismatch", 400)).code).toBe("S3_CHECKSUM_REJECTED");
  });

  it("endpoint unreachable", () => {
    const error = describe_(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
    expect(error.code).toBe("S3_UNREACHABLE");
    expect(error.message).toContain("https://minio.local:9000");
  });

  it("keeps no raw HTTP exchange in the cause", () => {
    const error = describe_(
      sdkError("AccessDenied", 403, "Access Denied", {
        $response: { headers: { authorization: "AWS4-HMAC-SHA256 Signature=secret" } },
      }),
    );
    expect(JSON.stringify(error.cause)).not.toContain("Signature");
    expect(Object.keys(error.cause as object)).not.toContain("$response");
  });

  it("lets an abort through unchanged", () => {
    const abort = new DOMException("aborted", "AbortError");
    expect(describeS3Error("uploading", target, abort)).toBe(abort);
  });
});
