// The hit reader of a slice whose outputs only splice rows from the service's bytes (NDJSON with no
// transform, no renaming, no record field in a path): each hit is checked whole from its bytes
// (hit-bytes.ts) and handed on as its identity and its `_source` bytes, never parsed. Parsing each hit
// and the garbage of the parsed objects were half of such an export's CPU (docs/performance.md).
import type { HitBytesReader, ReadHit } from "../core/hit-reader.js";
import { readHitBytes } from "./hit-bytes.js";
import { UniqueKeys } from "./json-keys.js";

/**
 * Declines (the hit is then parsed as usual) whatever the splice could not copy as JSON.stringify would
 * write it: bytes that are not compact, a `_source` with its own `_id` or `_index`, or with array-index
 * keys, a key named twice in one of its objects (JSON.parse keeps the last), a lone surrogate escape
 * (readers of the file refuse it: the parsed row is written with U+FFFD); and whatever the bytes reader
 * refuses (JSON.parse and the wire schema then name the fault).
 * @example
 * const hits = withReader(V3_HITS, createSpliceReader());
 */
export function createSpliceReader(): HitBytesReader {
  const taken: ReadHit = { row: { _id: "", _index: "" }, source: undefined, end: -1 };
  const keys = new UniqueKeys();
  return {
    read(bytes, start, end, v3, prefix = false) {
      const hit = readHitBytes(bytes, start, end, v3 ? "v3Hit" : "hit", prefix, keys);
      if (!hit.ok || !hit.compact || hit.sourceHasIdentityKey || hit.sourceHasIndexKey) return undefined;
      taken.row = { _id: hit.id, _index: hit.index };
      taken.source = bytes.subarray(hit.sourceStart, hit.sourceEnd);
      taken.end = hit.end;
      return taken;
    },
  };
}
