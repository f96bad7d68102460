// Reads one hit from its bytes in a single pass, without building the parsed object: checks that they
// are exactly one JSON value (RFC 8259) and an object of the hit's shape, and takes out what an output
// needs to splice the row from the service's own bytes. What it cannot vouch for it refuses with a
// reason, and the caller falls back to JSON.parse and the wire schema, which decide and name the field.
import { JsonBytes } from "./json-bytes.js";
import { JSON_FAILURE } from "./json-failures.js";
import type { UniqueKeys } from "./json-keys.js";
import * as token from "./json-bytes.js";
import type { HitBytesFailure, HitBytesRefusal, HitBytesResult, HitShape } from "./hit-bytes-result.js";
import { HitFields } from "./hit-bytes-fields.js";
import { walkHit } from "./hit-walk.js";

export type {
  HitBytes,
  HitBytesFailure,
  HitBytesRefusal,
  HitBytesResult,
  HitShape,
} from "./hit-bytes-result.js";

const refused = (reason: HitBytesRefusal): HitBytesFailure => ({ ok: false, reason });
const { notUtf8, tooDeep, repeatedKey } = JSON_FAILURE;
const refusal = (position: number): HitBytesFailure =>
  refused(
    position === notUtf8
      ? "utf8"
      : position === tooDeep
        ? "depth"
        : position === repeatedKey
          ? "keys"
          : "syntax",
  );

/**
 * Reads the hit in bytes[start, end) (whitespace around it allowed, as JSON.parse allows it). With
 * `prefix`, the hit starts at `start` and may close anywhere before `end` (bytes of a page still
 * streaming in): what follows it is not read, and `end` of the result says where it closed.
 * @example
 * const hit = readHitBytes(page, element.start, element.end, "v3Hit");
 * if (hit.ok) write(hit.id, hit.index, page.subarray(hit.sourceStart, hit.sourceEnd));
 * else parseAndCheck(page, element); // JSON.parse and the wire schema name what is wrong
 */
export function readHitBytes(
  bytes: Uint8Array,
  start: number,
  end: number,
  shape: HitShape,
  prefix = false,
  keys?: UniqueKeys,
): HitBytesResult {
  const json = new JsonBytes(bytes, end);
  const fields = new HitFields(shape, keys);
  let i = json.space(start);
  if (json.at(i) !== token.OPEN_OBJECT) {
    // Any other value: the shape check refuses it if JSON.parse accepts it.
    i = json.value(i, 0);
    if (i < 0) return refusal(i);
    return refused(json.space(i) === end ? "shape" : "syntax");
  }
  i = walkHit(json, i, fields);
  if (i < 0) return refusal(i);
  if (!prefix && json.space(i) !== end) return refused("syntax");
  if (!fields.fitShape()) return refused("shape");
  // Of `_source`, `_id` and `_index` (the bytes a splice copies), or of a `_source` given twice.
  if (keys !== undefined && json.loneSurrogate) return refused("surrogate");
  return {
    ok: true,
    end: i,
    index: json.text(fields.index + 1, fields.indexEnd - 1, fields.indexEscaped, true),
    id: json.text(fields.id + 1, fields.idEnd - 1, fields.idEscaped, true),
    sourceStart: fields.source,
    sourceEnd: fields.sourceEnd,
    sourceHasIdentityKey: fields.sourceHasIdentityKey,
    sourceHasIndexKey: fields.sourceHasIndexKey,
    compact: json.compact,
  };
}
