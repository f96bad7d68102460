// Re-reads an export and checks it against its manifest: every file present, with the rows and the
// SHA-256 the manifest holds, and no data file that the manifest does not list.
import { createHash } from "node:crypto";
import { errorMessage } from "../../errors.js";
import type { OutputStore } from "../../core/contracts.js";
import type { Manifest } from "./manifest.js";
import { SUCCESS_MARKER } from "./manifest.js";
import { STATE_DIRECTORY } from "./state-schema.js";

type VerifyProblemKind = "missing" | "truncated" | "rows" | "checksum" | "extra" | "unreadable";

interface VerifyProblem {
  kind: VerifyProblemKind;
  path: string;
  message: string;
}

interface VerifyReport {
  files: number;
  rows: number;
  problems: VerifyProblem[];
}

/** Counts the rows of one file of the export from its bytes: its format's row counter. */
type RowCounter = (chunks: AsyncIterable<Uint8Array>) => Promise<number>;

function isControlObject(path: string): boolean {
  const name = path.split("/").pop() ?? path;
  return (
    path.startsWith(`${STATE_DIRECTORY}/`) ||
    name.startsWith("_manifest") ||
    name.startsWith(SUCCESS_MARKER) ||
    name.startsWith(".")
  );
}

/** The rows and SHA-256 of a file, read once; a counter that fails early leaves the hash to a second read. */
async function readFile(
  store: OutputStore,
  path: string,
  countRows: RowCounter,
): Promise<{ sha256: string; counted: number | Error }> {
  const hash = createHash("sha256");
  let hashedAll = false;
  const chunks = await store.openRead(path);
  async function* hashing(): AsyncIterable<Uint8Array> {
    for await (const chunk of chunks) {
      hash.update(chunk);
      yield chunk;
    }
    hashedAll = true;
  }
  let counted: number | Error;
  try {
    counted = await countRows(hashing());
  } catch (error) {
    counted = error instanceof Error ? error : new Error(String(error));
  }
  if (!hashedAll) {
    const rest = createHash("sha256");
    for await (const chunk of await store.openRead(path)) rest.update(chunk);
    return { sha256: rest.digest("hex"), counted };
  }
  return { sha256: hash.digest("hex"), counted };
}

interface VerifyOptions {
  /**
   * Data files other manifests list (the other shards' of a destination the shards share): they
   * belong to another run, so they are not extra here. Unsharded, nothing is.
   */
  listedElsewhere?: ReadonlySet<string>;
  /** What `extra` messages say the file is missing from: "the manifest" unless told. */
  manifestName?: string;
}

/**
 * @example const report = await verifyExport(store, manifest, (chunks) => format.countRows(chunks, settings));
 */
export async function verifyExport(
  store: OutputStore,
  manifest: Manifest,
  countRows: RowCounter,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const problems: VerifyProblem[] = [];
  const report = (kind: VerifyProblemKind, path: string, message: string): void => {
    problems.push({ kind, path, message });
  };
  const listed = new Map((await store.list()).map((object) => [object.path, object.bytes]));
  let rows = 0;
  for (const file of manifest.files) {
    const size = listed.get(file.path);
    if (size === undefined) {
      report("missing", file.path, `${file.path} is in the manifest but not in ${store.location}`);
      continue;
    }
    if (size < file.bytes) {
      report("truncated", file.path, `${file.path} has ${size} bytes; the manifest says ${file.bytes}`);
      continue;
    }
    try {
      const { sha256, counted } = await readFile(store, file.path, countRows);
      if (sha256 !== file.sha256)
        report("checksum", file.path, `${file.path} does not have the checksum the manifest holds`);
      if (counted instanceof Error) throw counted;
      rows += counted;
      if (counted !== file.rows)
        report("rows", file.path, `${file.path} holds ${counted} rows; the manifest says ${file.rows}`);
    } catch (error) {
      const why = errorMessage(error);
      report("unreadable", file.path, `${file.path} cannot be read: ${why}`);
    }
  }
  const known = new Set(manifest.files.map((file) => file.path));
  for (const path of listed.keys()) {
    if (known.has(path) || options.listedElsewhere?.has(path) === true || isControlObject(path)) continue;
    report(
      "extra",
      path,
      `${path} is in ${store.location} but not in ${options.manifestName ?? "the manifest"}`,
    );
  }
  return { files: manifest.files.length, rows, problems };
}
