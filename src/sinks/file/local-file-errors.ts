// How a directory store reports file-system failures: a full disk as the resumable OUTPUT_FULL, any
// other failure as a SinkError naming the action and the system's code; and the directory sync that
// makes a rename durable.
import { open } from "node:fs/promises";
import { SinkError } from "../../errors.js";
import { outputFull, outputFullCode } from "../output-full.js";

/** Makes the rename itself durable: without it a power loss can undo a commit already reported. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename has still happened.
  } finally {
    await handle.close();
  }
}

/** The system's error code (ENOENT, EEXIST, …) of a file-system failure. */
export function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export function isMissing(error: unknown): boolean {
  return errnoOf(error) === "ENOENT";
}

export function wrap(action: string, error: unknown, root: string): SinkError {
  const full = outputFullCode(error);
  if (full !== undefined) return outputFull(root, action, full, error);
  const code = errnoOf(error);
  return new SinkError(`${action} failed${code === undefined ? "" : ` (${code})`}`, { cause: error });
}
