// Compare-and-swap on one S3 object for the output lock: S3's conditional writes (`If-None-Match: *`
// creates only when absent, `If-Match: ETAG` replaces or deletes only the version read), so of two
// runs on two hosts creating or taking over one lock only one succeeds.
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import type { S3Client } from "@aws-sdk/client-s3";
import type { ConditionalObjects } from "../../core/contracts.js";
import { describeS3Error } from "./s3-errors.js";
import type { S3Target, SdkErrorShape } from "./s3-errors.js";

interface S3ConditionalDeps {
  client: S3Client;
  target(path: string): S3Target;
}

/**
 * 412: the condition failed (the object exists, or changed). 409: a concurrent conditional write
 * won the race. 404: the object to replace is gone. Each means "someone else's", never a failure.
 */
function lostRace(error: unknown): boolean {
  const e = error as SdkErrorShape | undefined;
  const status = e?.$metadata?.httpStatusCode;
  return status === 412 || status === 409 || status === 404 || e?.name === "NoSuchKey";
}

export function createS3ConditionalObjects({ client, target }: S3ConditionalDeps): ConditionalObjects {
  const put = async (path: string, body: string, condition: { IfNoneMatch: "*" } | { IfMatch: string }) => {
    const { bucket, key } = target(path);
    try {
      const response = await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: "application/json",
          ...condition,
        }),
      );
      return response.ETag;
    } catch (error) {
      if (lostRace(error)) return undefined;
      throw describeS3Error("writing", target(path), error);
    }
  };
  return {
    create: (path, body) => put(path, body, { IfNoneMatch: "*" }),
    replace: (path, body, version) => put(path, body, { IfMatch: version }),
    async read(path) {
      const { bucket, key } = target(path);
      try {
        const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const body = (await response.Body?.transformToString("utf8")) ?? "";
        return response.ETag === undefined ? undefined : { body, version: response.ETag };
      } catch (error) {
        if (lostRace(error)) return undefined;
        throw describeS3Error("reading", target(path), error);
      }
    },
    async remove(path, version) {
      const { bucket, key } = target(path);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, IfMatch: version }));
      } catch (error) {
        if (!lostRace(error)) throw describeS3Error("deleting", target(path), error);
      }
    },
  };
}
