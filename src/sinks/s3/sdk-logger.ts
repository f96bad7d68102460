// The AWS SDK's logger option, over ours: what the SDK has to say (deprecations, checksum and region
// warnings) arrives as structured lines with the run's id instead of raw text on stderr.
import { format } from "node:util";
import type { S3ClientConfig } from "@aws-sdk/client-s3";
import type { Logger } from "../../logger.js";

/**
 * @example
 * new S3Client({ ...config, logger: sdkLogger(log) });
 */
export function sdkLogger(log: Logger): NonNullable<S3ClientConfig["logger"]> {
  const child = log.child({ component: "aws-sdk" });
  // The SDK's info lines are whole requests and responses, one per call: not worth a line each, and
  // better not written at all than trusted to be free of signatures. Its error lines are the failed
  // commands (a missing state object's 404 too), which reach the store as exceptions anyway.
  const ignore = (): void => undefined;
  return {
    trace: ignore,
    debug: ignore,
    info: ignore,
    warn: (...content: unknown[]) => child.warn({ sdk_message: format(...content) }, "The AWS SDK warned."),
    error: ignore,
  };
}
