// A stream is the data of one kind for one application, app_type and scope (a domain, or a serverless
// log group × tenant × stage). A query reads a sorted set of streams; each has its own seed.
import type { GeneratedKind } from "./generated-kind.js";
import { hash32, hashString } from "./random.js";

export interface Stream {
  key: string;
  kind: GeneratedKind;
  application: string;
  appType: string;
  /** Domain name, or `log_group|tenant|stage` for serverless logs. */
  scope: string;
  scopeParts: readonly string[];
  seed: number;
  /** Short stable tag that keeps `_id`s unique across streams. */
  tag: string;
}

export function createStream(
  seed: number,
  kind: GeneratedKind,
  application: string,
  appType: string,
  scopeParts: readonly string[],
): Stream {
  const scope = scopeParts.join("|");
  const key = `${kind}|${application}|${appType}|${scope}`;
  const streamSeed = hashString(seed, key);
  const tag = (hash32(streamSeed, 0x51) >>> 0).toString(36).padStart(7, "0");
  return { key, kind, application, appType, scope, scopeParts, seed: streamSeed, tag };
}

/** All combinations of the given dimensions as streams, sorted by key (the paging order). */
export function createStreams(
  seed: number,
  kind: GeneratedKind,
  applications: readonly string[],
  appTypes: readonly string[],
  scopes: readonly (readonly string[])[],
): Stream[] {
  // One stream per key: the same dimensions make the same stream.
  const streams = new Map<string, Stream>();
  for (const application of applications)
    for (const appType of appTypes)
      for (const scope of scopes) {
        const stream = createStream(seed, kind, application, appType, scope);
        streams.set(stream.key, stream);
      }
  return [...streams.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
