// `to: s3://bucket/prefix`: objects on AWS S3 or an S3-compatible store, options under `s3:`.
import type { S3Client } from "@aws-sdk/client-s3";
import type { Destination } from "../destination.js";
import type { S3Options } from "./s3-options.js";
import { s3OptionsSchema } from "./s3-options.js";

/** Bucket names as S3 allows them: 3 to 63 lowercase letters, digits, dots and hyphens. */
const S3_TARGET = /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/;

interface S3DestinationOptions {
  /** A client to use instead of one built from each sink's `s3:` options (a test's, an embedder's). */
  client?: S3Client;
}

/**
 * The S3 destination; the built-in one has no client of its own. An environment that brings a
 * client registers its own: `withComponents(base, { destinations: { s3: createS3Destination({ client }) } })`.
 */
export function createS3Destination(factory: S3DestinationOptions = {}): Destination<S3Options> {
  return {
    type: "s3",
    summary:
      "An S3 prefix on AWS or an S3-compatible store, written by multipart uploads completed on commit.",
    target: { scheme: "s3" },
    example: "s3://bucket/prefix",
    options: s3OptionsSchema,
    // Conditional writes (If-None-Match, If-Match) on the lock object.
    lock: "conditional",
    // Where and how objects are stored, not what they hold: the same files on another endpoint.
    outputNeutral: Object.keys(s3OptionsSchema.shape),
    checkTarget: (to) => (S3_TARGET.test(to) ? undefined : `"${to}" is not s3://bucket/prefix`),
    // DuckDB (httpfs) and Athena read the prefix itself; BigQuery reads Cloud Storage, so it names the
    // same bucket and prefix there, where the files are copied (Storage Transfer Service).
    ddlLocation: (to, dialect) => (dialect === "bigquery" ? `gs://${to.slice("s3://".length)}` : to),
    async open(to, options, deps) {
      // Loaded only for S3 destinations: the AWS SDK costs about 30 MB of memory and a quarter second.
      const { createS3Store } = await import("./s3-store.js");
      return createS3Store(to, options, {
        run: deps.run,
        ...(factory.client ? { client: factory.client } : {}),
        ...(deps.log ? { log: deps.log } : {}),
      });
    },
  };
}

export const s3Destination: Destination<S3Options> = createS3Destination();
