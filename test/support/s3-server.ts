// Starts fauxqs, a real S3-compatible HTTP server, in-process on loopback for S3 sink tests.
import { ListMultipartUploadsCommand, S3Client } from "@aws-sdk/client-s3";
import { startFauxqs } from "fauxqs";
import type { S3Options } from "../../src/sinks/schema.js";
import { s3OptionsSchema } from "../../src/sinks/schema.js";

export interface TestS3Server {
  endpoint: string;
  /** A client on the same endpoint, for reading back what the sink wrote. */
  client: S3Client;
  createBucket(name: string): void;
  /** Sink options pointing at this server, with path-style addressing (no wildcard DNS needed). */
  options(overrides?: Partial<S3Options>): S3Options;
  openUploads(bucket: string): Promise<number>;
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
    async openUploads(bucket) {
      const response = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      return response.Uploads?.length ?? 0;
    },
    async stop() {
      client.destroy();
      await server.stop();
    },
  };
}
