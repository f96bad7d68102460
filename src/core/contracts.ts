// The contracts every stage implements: sources, transforms and sinks exchange batches (one API page
// of rows) as async iterables, and sinks write through an output store (disk, S3, stdout).
import type { z } from "zod";
import type { Logger } from "../logger.js";
import type { RecordRequest } from "./hit-reader.js";
import type { Column, RecordBatch } from "./record-batch.js";

export type { Column, ColumnType, RecordBatch, RecordId, Row, RowJson, RowsBatch } from "./record-batch.js";

/**
 * A slice is the unit of work, retry and commit: `[start, end)` of the window.
 * `id` is deterministic (`20261121T000000Z`), so a redone slice writes the same names.
 */
export interface Slice {
  index: number;
  id: string;
  start: Date;
  end: Date;
}

/** What identifies one run, for `add` transforms, object metadata and the manifest. */
export interface RunInfo {
  pipelineName: string;
  runId: string;
  startedAt: Date;
}

/** Counts a slice keeps while it runs; the source fills `expected`, the runner the rest. */
export interface SliceStats {
  /** Records the service says the slice holds (scroll/PIT totals, partition counts); unknown until reported. */
  expected?: number;
  /** Records dropped because their `_id` was already written in this slice. */
  duplicates: number;
}

export interface SliceContext {
  signal: AbortSignal;
  log: Logger;
  slice: Slice;
  run: RunInfo;
  stats: SliceStats;
  /** What the slice's sinks take, and so what its source delivers; unset: rows with their JSON. */
  records?: RecordRequest;
}

/** Pages one slice of the service. Releases remote state (scroll, point in time, export) in `finally`. */
export type Source = (ctx: SliceContext) => AsyncIterable<RecordBatch>;

/** One part of a slice that can be committed on its own: a batch export partition. */
export interface SourcePart {
  /** Stable across runs for the same slice and query (a partition's time range). */
  id: string;
  /** Records the service says the part holds, when it says. */
  expected: number | undefined;
  /**
   * The time range (epoch ms, end exclusive) the part's records come from, when known: parts whose
   * ranges do not overlap cannot share a record, so a resume need not read committed ones again.
   */
  range?: { start: number; end: number } | undefined;
  source: Source;
}

/**
 * A source whose slice falls into parts, each fetched, written and committed as a unit, so a rerun
 * skips the parts an interrupted run committed (batch exports: downloaded partitions are not fetched again).
 */
export interface PartitionedSource {
  parts(ctx: SliceContext): Promise<readonly SourcePart[]>;
}

export function isPartitionedSource(source: Source | PartitionedSource): source is PartitionedSource {
  return typeof source === "object" && typeof (source as Partial<PartitionedSource>).parts === "function";
}

/** Reshapes batches. Lifted per-record mappers are fine; never buffer more than a batch. */
export type Transform = (input: AsyncIterable<RecordBatch>, ctx: SliceContext) => AsyncIterable<RecordBatch>;

/** Given the columns a stage receives, the columns it emits, and any field it refers to that is missing. */
export interface ColumnsResult {
  columns: readonly Column[];
  /** `overwrites`: the stage would write over a field the rows carry (a run checks these on the live mappings). */
  problems: readonly { path: string; message: string; overwrites?: boolean }[];
}

export interface TransformDeps {
  run: RunInfo;
}

/**
 * A transform as registered in `components/registry.ts`: the YAML key, its zod schema and its factory.
 * @example
 * export const renameTransform: TransformComponent<typeof renameSchema> = {
 *   type: "rename", summary: "Renames fields.", schema: renameSchema,
 *   create: (config) => mapRows((row) => ...),
 *   columns: (config, input) => ({ columns: ..., problems: [] }),
 * };
 */
export interface TransformComponent<Schema extends z.ZodType = z.ZodType> {
  type: string;
  summary: string;
  schema: Schema;
  create(config: z.infer<Schema>, deps: TransformDeps): Transform;
  columns(config: z.infer<Schema>, input: readonly Column[]): ColumnsResult;
}

/** Turns rows into the bytes of one file. Any sink writes any format. */
export interface RowEncoder {
  /** Encodes a batch; returns the bytes ready to be written (none while a row group is buffered). */
  encode(batch: RecordBatch): Promise<Uint8Array[]>;
  /** Flushes what is buffered and the trailer (Parquet footer, gzip end). */
  finish(): Promise<Uint8Array[]>;
  /**
   * The lone surrogates (`\ud800`, which no UTF-8 reader takes) written as U+FFFD in this file so far;
   * absent: the format writes none.
   */
  replacedSurrogates?(): number;
}

/** Bytes written for one file, once finished. */
export interface WrittenObject {
  bytes: number;
  /** Hex SHA-256 of the bytes as stored. */
  sha256: string;
}

/**
 * A file being written under a temporary name. Nothing is visible under the final name until
 * `commit`; `abort` removes every trace (temporary file, open multipart upload).
 */
export interface StagedWriter {
  write(chunk: Uint8Array): Promise<void>;
  /** Ends the bytes; the file stays invisible under its final name. */
  finish(): Promise<WrittenObject>;
  /** Makes the finished file visible under its final name (rename, or completing the upload). */
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export interface StoredObject {
  /** Path relative to the store's root, with `/` separators. */
  path: string;
  bytes: number;
}

/**
 * Where bytes go: a directory, an S3 prefix, or stdout. Paths are relative to the root and have
 * already been checked not to escape it.
 */
export interface OutputStore {
  /** For messages and the manifest: `./out/jobs`, `s3://bucket/prefix`, `-`. */
  readonly location: string;
  /** Opens a file under a temporary name; `contentType` is the format's media type, for stores that keep one. */
  stage(path: string, signal: AbortSignal, contentType?: string): Promise<StagedWriter>;
  /** Writes a small object atomically (manifest, state, `_SUCCESS`). */
  putObject(path: string, body: Uint8Array | string): Promise<void>;
  /** Reads a small object; undefined when absent. */
  getObject(path: string): Promise<Uint8Array | undefined>;
  list(prefix?: string): Promise<StoredObject[]>;
  deleteObject(path: string): Promise<void>;
  /** Opens a committed object for reading (verify). */
  openRead(path: string): Promise<AsyncIterable<Uint8Array>>;
  /**
   * Removes what a killed process left staged (hidden temporary files) for the final paths `owns`
   * accepts, and returns those paths. Only the caller knows which leftovers are its own: another shard
   * may be writing beside it, or a paused run whose lock was taken over (`writer`, the tag of the run
   * that wrote the file, when its name carries one). Stores with nothing to leave behind omit it.
   */
  removeLeftovers?(owns: (path: string, writer?: string) => boolean): Promise<string[]>;
  /** Conditional writes for the output lock (pipeline/output-state/output-lock.ts); stdout has nothing to lock. */
  readonly conditional?: ConditionalObjects;
  close(): Promise<void>;
}

/** Compare-and-swap on one small object: what makes a lock exclusive across processes and hosts. */
export interface ConditionalObjects {
  /** Creates the object unless it exists: its version, or undefined when another one is already there. */
  create(path: string, body: string): Promise<string | undefined>;
  /** The object and a version that changes with every write; undefined when absent. */
  read(path: string): Promise<{ body: string; version: string } | undefined>;
  /** Replaces the object only while it is still at `version`: the new version, or undefined. */
  replace(path: string, body: string, version: string): Promise<string | undefined>;
  /** Deletes the object only while it is still at `version`. */
  remove(path: string, version: string): Promise<void>;
}

/** A file a slice wrote, ready to be committed with the rest of the slice. */
export interface StagedFile extends WrittenObject {
  path: string;
  rows: number;
  /** Lone surrogates its encoder wrote as U+FFFD (RowEncoder.replacedSurrogates); absent: none. */
  replacedSurrogates?: number;
}

/** What a sink made of one slice: files written under temporary names, to commit or discard together. */
export interface SliceOutput {
  files: readonly StagedFile[];
  rows: number;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** Writes one slice's batches; on error or abort it discards what it staged before rejecting. */
export type Sink = (input: AsyncIterable<RecordBatch>, ctx: SliceContext) => Promise<SliceOutput>;
