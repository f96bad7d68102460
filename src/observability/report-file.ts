// The run report's file: its folder checked before the run's first request, and the file replaced
// atomically through a temporary name nobody can predict, created exclusively (O_EXCL), so a link
// planted beside the report never redirects the write, and a link at the report's own name is
// replaced, never followed.
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { open, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { ConfigError } from "../errors.js";
import { configErrorAt } from "../errors.js";

const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

function temporaryName(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(12).toString("hex")}.tmp`);
}

/** Creates `path` (never an existing file or link) and writes `text`; a file it created and could not fill is removed. */
async function writeExclusive(path: string, text: string): Promise<void> {
  const handle = await open(path, EXCLUSIVE, 0o644);
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(path).catch(() => undefined);
    throw error;
  }
  await handle.close();
}

/**
 * Throws ConfigError (exit 2, before any request) when `target` cannot be written: its folder is
 * missing, is not a folder, or refuses a new file; or `target` is a folder.
 * @example
 * await checkReportTarget("reports/nightly.json");
 */
export async function checkReportTarget(target: string): Promise<void> {
  const folder = dirname(target);
  const refuse = (why: string, fix: string): ConfigError => {
    const message = `--report "${target}": ${why}; ${fix}`;
    return configErrorAt("--report", message);
  };
  const folderStat = await stat(folder).catch(() => undefined);
  if (folderStat === undefined)
    throw refuse(
      `the folder "${folder}" does not exist`,
      "create it first, or give a path in an existing folder",
    );
  if (!folderStat.isDirectory()) throw refuse(`"${folder}" is not a folder`, "give a path in a folder");
  if ((await stat(target).catch(() => undefined))?.isDirectory() === true)
    throw refuse("it is a folder", "give a file name inside it");
  const probe = temporaryName(target);
  try {
    await writeExclusive(probe, "");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "an error";
    throw refuse(`a file cannot be created in "${folder}" (${code})`, "give a folder this user can write to");
  }
  await unlink(probe);
}

/**
 * Replaces `target` with `text`: written whole under an unpredictable name, then renamed over it.
 * @example
 * await replaceReportFile("report.json", `${JSON.stringify(report)}\n`);
 */
export async function replaceReportFile(target: string, text: string): Promise<void> {
  const temporary = temporaryName(target);
  await writeExclusive(temporary, text);
  await rename(temporary, target).catch(async (error: unknown) => {
    await unlink(temporary).catch(() => undefined);
    throw error;
  });
}
