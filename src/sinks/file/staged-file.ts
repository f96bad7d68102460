// One file of a slice written to a directory: bytes go to a hidden temporary name beside the final
// one, hashed as they pass, and the commit renames it into place.
import { createHash } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import type { StagedWriter, WrittenObject } from "../../core/contracts.js";
import { isSinkError, SinkError } from "../../errors.js";
import { reachedCommitStep } from "../../core/test-hook.js";
import { syncDirectory, wrap } from "./local-file-errors.js";
import { temporaryPathFor } from "./temporary-names.js";

export function stageFile(
  full: string,
  shown: string,
  root: string,
  signal: AbortSignal,
  writer: string | undefined,
  checkPath: () => Promise<void>,
): Promise<StagedWriter> {
  const temp = temporaryPathFor(full, writer);
  const hash = createHash("sha256");
  let bytes = 0;
  let written: WrittenObject | undefined;
  let settled = false;
  return open(temp, "wx").then(
    (handle: FileHandle) => {
      let closed = false;
      const closeOnce = async (): Promise<void> => {
        if (!closed) {
          closed = true;
          await handle.close();
        }
      };
      return {
        async write(chunk) {
          signal.throwIfAborted();
          try {
            // One write(2) may take only part of a chunk (a file system nearly full answers with the
            // bytes it took, not ENOSPC): write the rest until all is taken or the error comes.
            for (let offset = 0; offset < chunk.length;) {
              offset += (await handle.write(chunk, offset, chunk.length - offset)).bytesWritten;
            }
          } catch (error) {
            throw wrap(`writing ${shown}`, error, root);
          }
          hash.update(chunk);
          bytes += chunk.length;
        },
        async finish() {
          try {
            await handle.sync();
            await closeOnce();
          } catch (error) {
            throw wrap(`finishing ${shown}`, error, root);
          }
          written = { bytes, sha256: hash.digest("hex") };
          return written;
        },
        async commit() {
          if (written === undefined) throw new SinkError(`${shown} was committed before it was finished`);
          try {
            await checkPath();
            // rename replaces an earlier file of a redone slice in one step.
            await rename(temp, full);
            await syncDirectory(dirname(full));
            reachedCommitStep("commit-rename");
          } catch (error) {
            throw isSinkError(error) ? error : wrap(`committing ${shown}`, error, root);
          }
          settled = true;
        },
        async abort() {
          if (settled) return;
          settled = true;
          await closeOnce().catch(() => undefined);
          await unlink(temp).catch(() => undefined);
        },
      } satisfies StagedWriter;
    },
    (error: unknown) => {
      throw wrap(`creating ${shown}`, error, root);
    },
  );
}
