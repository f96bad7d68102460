// An S3 prefix as an output store, on AWS or any S3-compatible store, with credentials from the SDK chain.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import type { CreateMultipartUploadCommandInput, S3ClientConfig } from "@aws-sdk/client-s3";
import type { OutputStore, RunInfo, StoredObject } from "../../core/contracts.js";
import type { S3Options } from "./s3-options.js";
import { s3OptionsSchema } from "./s3-options.js";
import { checkRelativePath } from "../path-template.js";
import { createS3ConditionalObjects } from "./s3-conditional-objects.js";
import { describeS3Error } from "./s3-errors.js";
import type { S3Target } from "./s3-errors.js";
import { keyFor, parseS3Location } from "./s3-location.js";
import { stageMultipartUpload } from "./s3-multipart-writer.js";
import type { Logger } from "../../logger.js";
import { sdkLogger } from "./sdk-logger.js";

const RUN_ID_KEY = "mdq-run-id";

interface S3StoreDeps {
  run: RunInfo;
  /** Tests and tools may share a client; otherwise one is made from the options. */
  client?: S3Client;
  /** The SDK's warnings become log lines instead of raw text on stderr. */
  log?: Logger;
}

/** Data files carry their format's content type; the small objects are the manifest, state and _SUCCESS. */
function controlContentType(path: string): string {
  return path.endsWith(".json") ? "application/json" : "application/octet-stream";
}

/** Region, endpoint and checksum mode only; credentials are left to the SDK's default provider chain. */
function s3ClientConfig(options: S3Options): S3ClientConfig {
  const checksum = options.checksum === "when_required" ? "WHEN_REQUIRED" : "WHEN_SUPPORTED";
  return {
    ...(options.region === undefined ? {} : { region: options.region }),
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    forcePathStyle: options.force_path_style,
    requestChecksumCalculation: checksum,
    responseChecksumValidation: checksum,
  };
}

export function createS3Store(to: string, s3: S3Options | undefined, deps: S3StoreDeps): OutputStore {
  const options = s3 ?? s3OptionsSchema.parse({});
  const location = parseS3Location(to);
  const client =
    deps.client ??
    new S3Client({ ...s3ClientConfig(options), ...(deps.log ? { logger: sdkLogger(deps.log) } : {}) });
  const ownsClient = deps.client === undefined;
  const target = (path: string): S3Target => ({
    bucket: location.bucket,
    key: keyFor(location, path),
    endpoint: options.endpoint,
    region: options.region,
  });
  const objectParams = (path: string, contentType: string): CreateMultipartUploadCommandInput => {
    checkRelativePath(path);
    const key = keyFor(location, path);
    // Tags only when asked for: some S3-compatible stores (R2) refuse the tagging header outright,
    // while user metadata goes everywhere, so the run id always travels as metadata.
    const hasTags = Object.keys(options.tags).length > 0;
    const tags = new URLSearchParams({ ...options.tags, [RUN_ID_KEY]: deps.run.runId }).toString();
    return {
      Bucket: location.bucket,
      Key: key,
      ContentType: contentType,
      Metadata: { ...options.metadata, [RUN_ID_KEY]: deps.run.runId },
      ...(hasTags ? { Tagging: tags } : {}),
      // The SDK sends no header for an attribute left undefined.
      StorageClass: options.storage_class,
      ServerSideEncryption: options.server_side_encryption,
      SSEKMSKeyId: options.kms_key_id,
    };
  };

  return {
    location: to,
    conditional: createS3ConditionalObjects({ client, target }),
    async stage(path, signal, contentType = "application/octet-stream") {
      signal.throwIfAborted();
      return stageMultipartUpload({
        client,
        target: target(path),
        objectParams: objectParams(path, contentType),
        partSizeBytes: options.part_size_bytes,
        queueSize: options.queue_size,
        useChecksums: options.checksum === "when_supported",
        signal,
      });
    },
    async putObject(path, body) {
      try {
        // Bytes with their length: for an empty string (_SUCCESS) the SDK sends no Content-Length and
        // warns on stderr, outside our logger, about "a Stream of unknown length".
        const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
        await client.send(
          new PutObjectCommand({
            ...objectParams(path, controlContentType(path)),
            Body: bytes,
            ContentLength: bytes.length,
          }),
        );
      } catch (error) {
        throw describeS3Error("writing", target(path), error);
      }
    },
    async getObject(path) {
      checkRelativePath(path);
      try {
        const response = await client.send(
          new GetObjectCommand({ Bucket: location.bucket, Key: keyFor(location, path) }),
        );
        return response.Body === undefined ? new Uint8Array(0) : await response.Body.transformToByteArray();
      } catch (error) {
        if ((error as { name?: string }).name === "NoSuchKey") return undefined;
        throw describeS3Error("reading", target(path), error);
      }
    },
    async list(prefix = "") {
      const root = location.prefix === "" ? "" : `${location.prefix}/`;
      const objects: StoredObject[] = [];
      let token: string | undefined;
      do {
        try {
          const page = await client.send(
            new ListObjectsV2Command({
              Bucket: location.bucket,
              Prefix: root + prefix,
              ContinuationToken: token,
            }),
          );
          for (const object of page.Contents ?? []) {
            if (object.Key === undefined) continue;
            objects.push({ path: object.Key.slice(root.length), bytes: object.Size ?? 0 });
          }
          token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
        } catch (error) {
          throw describeS3Error("listing", target(prefix), error);
        }
      } while (token !== undefined);
      return objects;
    },
    async deleteObject(path) {
      checkRelativePath(path);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: location.bucket, Key: keyFor(location, path) }));
      } catch (error) {
        throw describeS3Error("deleting", target(path), error);
      }
    },
    async openRead(path) {
      checkRelativePath(path);
      try {
        const response = await client.send(
          new GetObjectCommand({ Bucket: location.bucket, Key: keyFor(location, path) }),
        );
        // In Node the body is a Readable, which is an AsyncIterable of Buffers.
        return (response.Body ?? []) as AsyncIterable<Uint8Array>;
      } catch (error) {
        throw describeS3Error("reading", target(path), error);
      }
    },
    async close() {
      if (ownsClient) client.destroy();
    },
  };
}
