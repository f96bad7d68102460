// Which pipeline an output belongs to: the name its state and its manifests carry. A pipeline never
// writes into another's output — not even under --force, which would leave the other pipeline's
// files, state and manifest under one name and the records of the two side by side under one glob.
import { EtlError } from "../../errors.js";
import type { OutputStore } from "../../core/contracts.js";
import { STATE_DIRECTORY } from "./state-schema.js";
import { manifestObjectPath } from "./manifest.js";
import type { Shard } from "../plan/shard.js";

/** The refusal of a run on an output `owner` wrote; names are quoted as JSON, so nothing in them can pass for text of ours. */
export function ownedByAnother(location: string, owner: string, pipeline: string): EtlError {
  const theirs = JSON.stringify(owner);
  const ours = JSON.stringify(pipeline);
  return new EtlError(
    "OUTPUT_OWNED",
    `the output in ${location} belongs to pipeline ${theirs} (its state and manifest name it), not to ${ours}: ` +
      `a pipeline never writes into another's output, --force included. Give ${ours} a destination of its own; ` +
      `if it is ${theirs} renamed, give it back the name ${theirs}; to hand the output over, move it away first`,
  );
}

/** The `pipeline` a state or manifest object names; undefined when absent or not readable as one. */
async function namedIn(store: OutputStore, path: string): Promise<string | undefined> {
  const bytes = await store.getObject(path);
  if (bytes === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(bytes).toString("utf8"));
    const name = (parsed as { pipeline?: unknown } | null)?.pipeline;
    return typeof name === "string" ? name : undefined;
  } catch {
    // What cannot be read names nobody; the state's own reader refuses an unreadable state.
    return undefined;
  }
}

/**
 * The state objects (every shard's, not their journals) and the manifests (the whole output's and the
 * shard's) an output may hold. The output's own folder is not listed: it may hold 100,000 files.
 */
async function recordsOf(store: OutputStore, shard: Shard | undefined): Promise<string[]> {
  const prefix = `${STATE_DIRECTORY}/state`;
  const states = (await store.list(prefix))
    .map((object) => object.path)
    .filter((path) => path.endsWith(".json") && !path.slice(prefix.length).includes("/"));
  return [...states, ...new Set([manifestObjectPath(), manifestObjectPath(shard)])];
}

/**
 * Throws OUTPUT_OWNED when the output in `store` was written by a pipeline of another name, as one of
 * its state objects or manifests says. An output none of them names is anyone's.
 */
export async function checkOutputOwner(
  store: OutputStore,
  pipeline: string,
  shard: Shard | undefined,
): Promise<void> {
  for (const path of await recordsOf(store, shard)) {
    const owner = await namedIn(store, path);
    if (owner !== undefined && owner !== pipeline) throw ownedByAnother(store.location, owner, pipeline);
  }
}
