// Paths below an output root that are never followed through a symbolic link: a link planted in the
// output (a partition folder, the hidden state folder) would otherwise make the exporter write, rename
// or delete files outside the root.
import { lstat, mkdir, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { isSinkError, SinkError } from "../../errors.js";
import { outputFull, outputFullCode } from "../output-full.js";
import { errnoOf } from "./local-file-errors.js";

/** The folders between the root (excluded: the user chose it) and `full` (excluded). */
function foldersBelow(absoluteRoot: string, full: string): string[] {
  const parts = relative(absoluteRoot, full).split(sep).slice(0, -1);
  return parts.map((_, index) => join(absoluteRoot, ...parts.slice(0, index + 1)));
}

function linkRefused(path: string, root: string): SinkError {
  return new SinkError(
    `${path} is a symbolic link inside the output ${root}; mdq-export never writes, renames or deletes through a link (it could reach files outside the output). Remove the link or choose another destination`,
    { code: "SINK_PATH_LINK" },
  );
}

/**
 * Refuses when a folder on the way to `full` (or `full` itself, with `self`) is a symbolic link.
 * Missing folders are fine: nothing can be reached through them.
 */
export async function checkNoLink(
  absoluteRoot: string,
  full: string,
  shownRoot: string,
  self = false,
): Promise<void> {
  const paths = foldersBelow(absoluteRoot, full);
  if (self) paths.push(full);
  for (const path of paths) {
    try {
      if ((await lstat(path)).isSymbolicLink()) throw linkRefused(path, shownRoot);
    } catch (error) {
      if (errnoOf(error) === "ENOENT") return;
      throw error;
    }
  }
}

/**
 * Creates the folders of `full` one at a time, refusing a link at any step. A recursive mkdir would
 * follow a planted link; on some special file systems (/proc) it also loops forever on its errors.
 */
export async function makeFoldersNoLink(
  absoluteRoot: string,
  full: string,
  shownRoot: string,
): Promise<void> {
  await makeRoot(absoluteRoot, shownRoot);
  for (const path of foldersBelow(absoluteRoot, full)) {
    await makeFolder(path, path);
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) throw linkRefused(path, shownRoot);
    if (!stats.isDirectory()) throw new SinkError(`${path} is not a folder`, { code: "SINK_PATH_INVALID" });
  }
}

/**
 * The root itself may be a link the user made; it must be a folder that exists or can be created,
 * one level at a time from its nearest existing ancestor.
 */
async function makeRoot(absoluteRoot: string, shownRoot: string): Promise<void> {
  const missing: string[] = [];
  for (let path = absoluteRoot; ; path = dirname(path)) {
    try {
      if (!(await stat(path)).isDirectory())
        throw new SinkError(`${path} is not a folder`, { code: "SINK_PATH_INVALID" });
      break;
    } catch (error) {
      if (isSinkError(error)) throw error;
      if (errnoOf(error) !== "ENOENT" || dirname(path) === path) throw folderError(shownRoot, error);
      missing.unshift(path);
    }
  }
  for (const path of missing) await makeFolder(path, shownRoot);
}

/** One folder, unless it exists; a failure names `shown`. */
async function makeFolder(path: string, shown: string): Promise<void> {
  await mkdir(path).catch((error: unknown) => {
    if (errnoOf(error) !== "EEXIST") throw folderError(shown, error);
  });
}

function folderError(path: string, error: unknown): SinkError {
  const code = errnoOf(error);
  const full = outputFullCode(error);
  if (full !== undefined) return outputFull(path, `creating a folder in ${path}`, full, error);
  return new SinkError(
    `cannot create the folder ${path}${code === undefined ? "" : ` (${code})`}; choose a destination this user can write`,
    { cause: error, code: "SINK_NOT_WRITABLE" },
  );
}
