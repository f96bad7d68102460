// Re-reads an export and checks it against its manifest: every file present, with the rows and the
// SHA-256 the manifest holds, and no data file that the manifest does not list.
import { createHash } from "node:crypto";
import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import { parquetMetadata } from "hyparquet";
import type { OutputStore } from "./contracts.js";
import type { Manifest } from "./manifest.js";
import { SUCCESS_MARKER } from "./manifest.js";
import { STATE_DIRECTORY } from "./state.js";

export type VerifyProblemKind = "missing" | "truncated" | "rows" | "checksum" | "extra" | "unreadable";

export interface VerifyProblem {
  kind: VerifyProblemKind;
  path: string;
  message: string;
}

export interface VerifyReport {
  files: number;
  rows: number;
  problems: VerifyProblem[];
}

/** A Parquet footer bigger than this is not one we wrote. */
const MAX_FOOTER_BYTES = 16 * 1024 * 1024;

function isControlObject(path: string): boolean {
  const name = path.split("/").pop() ?? path;
  return (
    path.startsWith(`${STATE_DIRECTORY}/`) ||
    name.startsWith("_manifest") ||
    name.startsWith(SUCCESS_MARKER) ||
    name.startsWith(".")
  );
}

async function countNdjsonRows(chunks: AsyncIterable<Uint8Array>, gzip: boolean): Promise<number> {
  const stream = gzip ? Readable.from(chunks).pipe(createGunzip()) : chunks;
  let rows = 0;
  let last = 10;
  for await (const chunk of stream as AsyncIterable<Uint8Array>) {
    for (let index = 0; index < chunk.length; index++) if (chunk[index] === 10) rows++;
    if (chunk.length > 0) last = chunk[chunk.length - 1] as number;
  }
  return last === 10 ? rows : rows + 1;
}

/** Streams an object once: its checksum, its size, and (for Parquet) the tail that holds the footer. */
async function digest(
  chunks: AsyncIterable<Uint8Array>,
  keepTail: boolean,
): Promise<{ sha256: string; bytes: number; tail: Buffer }> {
  const hash = createHash("sha256");
  let bytes = 0;
  let tail = Buffer.alloc(0);
  for await (const chunk of chunks) {
    hash.update(chunk);
    bytes += chunk.length;
    if (keepTail) {
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > MAX_FOOTER_BYTES) tail = tail.subarray(tail.length - MAX_FOOTER_BYTES);
    }
  }
  return { sha256: hash.digest("hex"), bytes, tail };
}

export async function verifyExport(store: OutputStore, manifest: Manifest): Promise<VerifyReport> {
  const problems: VerifyProblem[] = [];
  const listed = new Map((await store.list()).map((object) => [object.path, object.bytes]));
  let rows = 0;
  for (const file of manifest.files) {
    const size = listed.get(file.path);
    if (size === undefined) {
      problems.push({
        kind: "missing",
        path: file.path,
        message: `${file.path} is in the manifest but not in ${store.location}`,
      });
      continue;
    }
    if (size < file.bytes) {
      problems.push({
        kind: "truncated",
        path: file.path,
        message: `${file.path} has ${size} bytes; the manifest says ${file.bytes}`,
      });
      continue;
    }
    const isParquet = file.path.endsWith(".parquet");
    try {
      const { sha256, tail } = await digest(await store.openRead(file.path), isParquet);
      if (sha256 !== file.sha256) {
        problems.push({
          kind: "checksum",
          path: file.path,
          message: `${file.path} does not have the checksum the manifest holds`,
        });
      }
      const counted = isParquet
        ? Number(parquetMetadata(tail).num_rows)
        : await countNdjsonRows(await store.openRead(file.path), file.path.endsWith(".gz"));
      rows += counted;
      if (counted !== file.rows) {
        problems.push({
          kind: "rows",
          path: file.path,
          message: `${file.path} holds ${counted} rows; the manifest says ${file.rows}`,
        });
      }
    } catch (error) {
      problems.push({
        kind: "unreadable",
        path: file.path,
        message: `${file.path} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  const known = new Set(manifest.files.map((file) => file.path));
  for (const path of listed.keys()) {
    if (known.has(path) || isControlObject(path)) continue;
    problems.push({
      kind: "extra",
      path,
      message: `${path} is in ${store.location} but not in the manifest`,
    });
  }
  return { files: manifest.files.length, rows, problems };
}
