// Chooses the output store for a sink's `to`: `-` is stdout, `s3://` an S3 prefix, anything else a directory.
import type { Writable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import type { OutputStore, RunInfo } from "../pipeline/contracts.js";
import type { SinkConfig } from "./schema.js";
import { createLocalStore } from "./file/local-store.js";
import { createStdoutStore } from "./stdout/stdout-store.js";

export interface OutputStoreDeps {
  run: RunInfo;
  /** Where `to: -` writes; process.stdout unless a test captures it. */
  stdout?: Writable;
  /** An S3 client to use instead of one built from the sink's options. */
  s3Client?: S3Client;
}

export async function openOutputStore(config: SinkConfig, deps: OutputStoreDeps): Promise<OutputStore> {
  if (config.to === "-") return createStdoutStore(deps.stdout);
  if (config.to.startsWith("s3://")) {
    // Loaded only for S3 destinations: the AWS SDK costs about 30 MB of memory and a quarter second.
    const { createS3Store } = await import("./s3/s3-store.js");
    return createS3Store(config.to, config.s3, {
      run: deps.run,
      ...(deps.s3Client ? { client: deps.s3Client } : {}),
    });
  }
  return createLocalStore(config.to);
}
