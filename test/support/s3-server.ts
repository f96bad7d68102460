// Starts fauxqs, a real S3-compatible HTTP server, in-process on loopback for S3 sink tests.
import {
  DeleteBucketCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from "@aws-sdk/client-s3";
import { startFauxqs } from "fauxqs";
import type { S3Options } from "../../src/sinks/s3/s3-options.js";
import { s3OptionsSchema } from "../../src/sinks/s3/s3-options.js";

export interface TestS3Server {
  endpoint: string;
  /** A client on the same endpoint, for reading back what the sink wrote. */
  client: S3Client;
  createBucket(name: string): void;
  /** Sink options pointing at this server, with path-style addressing (no wildcard DNS needed). */
  options(overrides?: Partial<S3Options>): S3Options;
  /**
   * Whether the bucket holds an in-progress multipart upload. Asks ListMultipartUploads first (what real
   * S3 answers); fauxqs 1.9.2 does not implement it and answers with an empty list, so the helper also
   * asks DeleteBucket, which fauxqs refuses while an upload is open. Needs a bucket with no objects
   * (it throws otherwise, so a vacuous check cannot pass); the bucket is recreated afterwards.
   */
  hasOpenUploads(bucket: string): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * The SDK's default provider chain reads credentials from the environment; fauxqs accepts any,
 * so tests set dummy ones there, exactly as a container would get real ones.
 */
export async function startS3Server(): Promise<TestS3Server> {
  process.env.AWS_ACCESS_KEY_ID ??= "test";
  process.env.AWS_SECRET_ACCESS_KEY ??= "test";
  const server = await startFauxqs({ host: "127.0.0.1", port: 0, logger: false });
  const endpoint = server.address;
  const client = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true });
  return {
    endpoint,
    client,
    createBucket: (name) => {
      server.createBucket(name);
    },
    options: (overrides = {}) =>
      s3OptionsSchema.parse({ region: "us-east-1", endpoint, force_path_style: true, ...overrides }),
    async hasOpenUploads(bucket) {
      const listed = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      if ((listed.Uploads?.length ?? 0) > 0) return true;
      const objects = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      if ((objects.KeyCount ?? 0) > 0)
        throw new Error(`hasOpenUploads needs an empty bucket; ${bucket} holds objects`);
      try {
        await client.send(new DeleteBucketCommand({ Bucket: bucket }));
      } catch (error) {
        if ((error as { name?: string }).name === "BucketNotEmpty") return true;
        throw error;
      }
      server.createBucket(bucket);
      return false;
    },
    async stop() {
      client.destroy();
      await server.stop();
    },
  };
}
