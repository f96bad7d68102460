// One object written as a multipart upload held open until commit: flat memory, invisible until then.
import { createHash } from "node:crypto";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import type { CompletedPart, CreateMultipartUploadCommandInput, S3Client } from "@aws-sdk/client-s3";
import type { StagedWriter, WrittenObject } from "../../core/contracts.js";
import { SinkError } from "../../errors.js";
import { describeS3Error } from "./s3-errors.js";
import type { S3Target } from "./s3-errors.js";

/** S3 refuses more parts than this in one upload. */
const MAX_PARTS = 10_000;

interface MultipartOptions {
  client: S3Client;
  target: S3Target;
  /** Bucket, key and object attributes (storage class, encryption, metadata, tagging, content type). */
  objectParams: CreateMultipartUploadCommandInput;
  partSizeBytes: number;
  /** Parts uploaded in parallel; memory is about partSizeBytes × (queueSize + 1). */
  queueSize: number;
  /** The SDK's CRC32 checksums are on; the upload must then declare the algorithm up front. */
  useChecksums: boolean;
  signal: AbortSignal;
}

/**
 * Why not lib-storage's Upload: it completes the upload as soon as the stream ends, so the object
 * would be visible before the slice commits. Holding the upload open and completing it at commit
 * gives the rename-like step for free, with no copy (a copy of a >5 GB object is itself multipart).
 */
export function stageMultipartUpload(options: MultipartOptions): StagedWriter {
  const { client, target, partSizeBytes, queueSize, useChecksums } = options;
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(options.signal.reason);
  options.signal.addEventListener("abort", onAbort, { once: true });
  const sendOptions = { abortSignal: controller.signal };
  const object = { Bucket: options.objectParams.Bucket, Key: options.objectParams.Key };
  const hash = createHash("sha256");
  const parts: CompletedPart[] = [];
  const inFlight = new Set<Promise<void>>();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let bytes = 0;
  let nextPart = 1;
  let uploadId: Promise<string> | undefined;
  let failure: unknown;
  let written: WrittenObject | undefined;
  let settled = false;

  const createUpload = (): Promise<string> => {
    uploadId ??= client
      .send(
        new CreateMultipartUploadCommand({
          ...options.objectParams,
          ...(useChecksums ? { ChecksumAlgorithm: "CRC32" } : {}),
        }),
        sendOptions,
      )
      .then((response) => {
        if (response.UploadId === undefined) throw new Error("CreateMultipartUpload returned no UploadId");
        return response.UploadId;
      })
      .catch((error: unknown) => {
        throw describeS3Error("starting the upload of", target, error);
      });
    return uploadId;
  };

  const uploadPart = async (body: Uint8Array): Promise<void> => {
    const partNumber = nextPart++;
    if (partNumber > MAX_PARTS) {
      throw new SinkError(
        `s3://${target.bucket}/${target.key} needs more than ${MAX_PARTS} parts; raise s3.part_size_bytes or lower max_file_bytes`,
        { code: "S3_TOO_MANY_PARTS" },
      );
    }
    const id = await createUpload();
    try {
      const response = await client.send(
        new UploadPartCommand({
          ...object,
          UploadId: id,
          PartNumber: partNumber,
          Body: body,
          ContentLength: body.length,
          ...(useChecksums ? { ChecksumAlgorithm: "CRC32" } : {}),
        }),
        sendOptions,
      );
      parts.push({
        PartNumber: partNumber,
        ETag: response.ETag,
        ...(response.ChecksumCRC32 === undefined ? {} : { ChecksumCRC32: response.ChecksumCRC32 }),
      });
    } catch (error) {
      throw describeS3Error(`uploading part ${partNumber} of`, target, error);
    }
  };

  /** Waits until at most `limit` parts are in flight; the first failure of any part is thrown. */
  const settleTo = async (limit: number): Promise<void> => {
    while (inFlight.size > limit) await Promise.race(inFlight);
    if (failure !== undefined) throw failure;
  };

  /** Starts a part, waiting first while the queue is full: the writer's backpressure. */
  const startPart = async (body: Uint8Array): Promise<void> => {
    await settleTo(queueSize - 1);
    const task: Promise<void> = uploadPart(body).then(
      () => {
        inFlight.delete(task);
      },
      (error: unknown) => {
        inFlight.delete(task);
        failure ??= error;
      },
    );
    inFlight.add(task);
  };

  const takePart = (size: number): Uint8Array => {
    const all = pending.length === 1 ? (pending[0] as Uint8Array) : Buffer.concat(pending);
    const part = all.subarray(0, size);
    const rest = all.subarray(size);
    pending = rest.length > 0 ? [rest] : [];
    pendingBytes = rest.length;
    // A copy, so the part does not pin the larger buffer it was cut from while it uploads.
    return Uint8Array.prototype.slice.call(part);
  };

  return {
    async write(chunk) {
      options.signal.throwIfAborted();
      if (failure !== undefined) throw failure;
      hash.update(chunk);
      bytes += chunk.length;
      pending.push(chunk);
      pendingBytes += chunk.length;
      while (pendingBytes >= partSizeBytes) await startPart(takePart(partSizeBytes));
    },
    async finish() {
      if (pendingBytes > 0) await startPart(takePart(pendingBytes));
      await settleTo(0);
      written = { bytes, sha256: hash.digest("hex") };
      return written;
    },
    async commit() {
      if (written === undefined)
        throw new SinkError(`s3://${target.bucket}/${target.key} was committed before it was finished`);
      try {
        if (uploadId === undefined) {
          // An empty file never started an upload (S3 wants at least one part); a PUT is atomic too.
          await client.send(
            new PutObjectCommand({ ...options.objectParams, Body: new Uint8Array(0), ContentLength: 0 }),
          );
        } else {
          parts.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
          await client.send(
            new CompleteMultipartUploadCommand({
              ...object,
              UploadId: await uploadId,
              MultipartUpload: { Parts: parts },
            }),
          );
        }
      } catch (error) {
        throw describeS3Error("completing the upload of", target, error);
      } finally {
        options.signal.removeEventListener("abort", onAbort);
      }
      settled = true;
    },
    async abort() {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener("abort", onAbort);
      controller.abort(new SinkError("upload aborted"));
      // Parts still in flight would land after the abort and be billed as orphans; wait them out first.
      await Promise.allSettled(inFlight);
      const id = await uploadId?.catch(() => undefined);
      if (id === undefined) return;
      try {
        await client.send(new AbortMultipartUploadCommand({ ...object, UploadId: id }));
      } catch (error) {
        throw describeS3Error("aborting the upload of", target, error);
      }
    },
  };
}
