// The hidden temporary names a directory store writes beside each final name, and how a leftover
// sweep reads one back: the final name it stands for and the run that wrote it.
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";

const TEMP_MARK = ".tmp-";

/** True for the hidden temporary names this store writes (`.part-0001.parquet.tmp-3f9a…`). */
export function isTemporaryName(name: string): boolean {
  return name.startsWith(".") && name.includes(TEMP_MARK);
}

/** The final name a temporary name stands for (`.part-0001.parquet.tmp-3f9a…` → `part-0001.parquet`). */
export function finalNameOf(temporaryName: string): string {
  return temporaryName.slice(1, temporaryName.lastIndexOf(TEMP_MARK));
}

/** The writer tag a temporary name carries (`….tmp-WRITER-RANDOM`); undefined in older names. */
export function writerOf(temporaryName: string): string | undefined {
  const [writer, random] = temporaryName
    .slice(temporaryName.lastIndexOf(TEMP_MARK) + TEMP_MARK.length)
    .split("-");
  return random === undefined ? undefined : writer;
}

/**
 * The temporary file sits in the final directory, so the commit is a rename within one file system
 * (atomic), and it is hidden, so readers globbing `*.parquet` never see a half-written file. The
 * writer's tag lets a leftover sweep tell a living run's file from a dead run's.
 */
export function temporaryPathFor(finalPath: string, writer: string | undefined): string {
  const tag = writer === undefined ? "" : `${writer}-`;
  return join(
    dirname(finalPath),
    `.${basename(finalPath)}${TEMP_MARK}${tag}${randomBytes(6).toString("hex")}`,
  );
}
