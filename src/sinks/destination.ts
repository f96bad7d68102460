// The contract of a destination (where a sink's files go) and how the `to` of a sink picks one.
import type { Logger } from "../logger.js";
import type { z } from "zod";
import type { OutputStore, RunInfo } from "../core/contracts.js";
import type { Writable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";

/** How a sink's `to` names a destination. */
export type DestinationTarget =
  /** `scheme://...`, such as s3://bucket/prefix. */
  | { scheme: string }
  /** Exactly this value, such as `-`. */
  | { literal: string }
  /** A local path: whatever no other destination claims. */
  | { path: true };

/** What opening a store may need beside `to` and the destination's options. */
export interface DestinationDeps {
  run: RunInfo;
  /** Where `to: -` writes; process.stdout unless a test captures it. */
  stdout?: Writable;
  /** An S3 client to use instead of one built from the sink's options. */
  s3Client?: S3Client;
  /** Where a destination's library logs (the AWS SDK's warnings), as log lines. */
  log?: Logger;
}

/**
 * A destination; any format goes to any destination, except that a `stream` destination takes only
 * formats that stream. Registered in `DESTINATIONS` (components/registry.ts) under its `type`, which is
 * also the YAML key of its options on a sink (`s3: { region: ... }`).
 */
export interface Destination<Options = unknown> {
  type: string;
  /** One line, shown in the generated docs. */
  summary: string;
  target: DestinationTarget;
  /** How `to` looks for it, for messages: `s3://bucket/prefix`. */
  example: string;
  /** One stream rather than files: no record fields in paths, only formats that stream. */
  stream?: boolean;
  /** Its options, under its own key on a sink; omitted when it has none. */
  options?: z.ZodType<Options>;
  /**
   * Keys of its options that change how bytes are stored (credentials, tags, storage class) but not
   * which files are written: a rerun that changes them keeps the files already written.
   */
  outputNeutral?: readonly string[];
  /** A problem with `to` itself (after the scheme), or undefined. */
  checkTarget?(to: string): string | undefined;
  open(to: string, options: Options | undefined, deps: DestinationDeps): Promise<OutputStore>;
}
