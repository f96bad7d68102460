// Parses `s3://bucket/prefix` and maps store paths to object keys under the prefix.
import { SinkError } from "../../errors.js";

interface S3Location {
  bucket: string;
  /** Without leading or trailing slash; empty for the bucket root. */
  prefix: string;
}

export function parseS3Location(to: string): S3Location {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(to);
  if (match === null || match[1] === undefined) {
    throw new SinkError(`"${to}" is not s3://bucket/prefix`, { code: "SINK_PATH_INVALID" });
  }
  return { bucket: match[1], prefix: (match[2] ?? "").replace(/^\/+|\/+$/g, "") };
}

export function keyFor(location: S3Location, path: string): string {
  return location.prefix === "" ? path : `${location.prefix}/${path}`;
}
