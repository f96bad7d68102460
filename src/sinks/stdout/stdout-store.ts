// Standard output as an output store: bytes pass straight through; there is nothing to commit or list.
import { createHash } from "node:crypto";
import type { Writable } from "node:stream";
import type { OutputStore, StagedWriter } from "../../core/contracts.js";
import { SinkError } from "../../errors.js";

/**
 * Bytes written to a pipe cannot be taken back, so `commit` and `abort` do nothing: a consumer of
 * stdout sees a slice's records as they come, and a failed slice may leave some of them behind.
 * Files are written one at a time (the next `stage` waits for the previous file to end), so two
 * gzip streams or two slices never interleave. Manifest and state have no place here and are dropped.
 */
export function createStdoutStore(output: Writable = process.stdout): OutputStore {
  let queue: Promise<void> = Promise.resolve();

  const writeChunk = (chunk: Uint8Array): Promise<void> =>
    new Promise((resolve, reject) => {
      output.write(chunk, (error) =>
        error ? reject(new SinkError("writing to stdout failed", { cause: error })) : resolve(),
      );
    });

  return {
    location: "-",
    async stage(_path, signal) {
      let release: () => void = () => undefined;
      const previous = queue;
      queue = new Promise((resolve) => {
        release = resolve;
      });
      await previous;
      if (signal.aborted) {
        release();
        signal.throwIfAborted();
      }
      const hash = createHash("sha256");
      let bytes = 0;
      const writer: StagedWriter = {
        async write(chunk) {
          await writeChunk(chunk);
          hash.update(chunk);
          bytes += chunk.length;
        },
        async finish() {
          release();
          return { bytes, sha256: hash.digest("hex") };
        },
        async commit() {},
        async abort() {
          release();
        },
      };
      return writer;
    },
    async putObject() {},
    async getObject() {
      return undefined;
    },
    async list() {
      return [];
    },
    async deleteObject() {},
    async openRead(path) {
      throw new SinkError(`stdout cannot be read back (${path})`, { code: "SINK_NOT_READABLE" });
    },
    async close() {},
  };
}
