// Reads one hit from its bytes in a single pass, without building the parsed object: checks that they
// are exactly one JSON value (RFC 8259) and an object of the hit's shape, and takes out what an output
// needs to splice the row from the service's own bytes. What it cannot vouch for it refuses with a
// reason, and the caller falls back to JSON.parse and the wire schema, which decide and name the field.
import { JsonBytes } from "./json-bytes.js";
import { JSON_FAILURE } from "./json-failures.js";
import type { UniqueKeys } from "./json-keys.js";
import * as token from "./json-bytes.js";
import { HitFields } from "./hit-walk.js";
import type { HitShape } from "./hit-walk.js";

/**
 * Why bytes were refused. With a key check (`readHitBytes`' `keys`), also `keys`: `_source` names a
 * key twice in one object (or writes one with escapes), and `surrogate`: it holds a lone surrogate
 * escape; JSON.parse takes both, but the bytes copied as they came would not say what it says.
 * `syntax`: JSON.parse refuses them too. `shape`: JSON.parse accepts them, the hit schema does not. `utf8`: a sequence that is not UTF-8 (decoding puts U+FFFD in its place, so the
 * bytes could not be copied as they are). `depth`: containers nested deeper than MAX_JSON_DEPTH.
 */
export type HitBytesRefusal = "syntax" | "shape" | "utf8" | "depth" | "keys" | "surrogate";

interface HitBytes {
  ok: true;
  /** Where the hit's object closes (just past its `}`; whitespace after it is not counted). */
  end: number;
  /** `_index` and `_id` as JSON.parse decodes them; of a key given twice the last, as JSON.parse. */
  index: string;
  id: string;
  /** The `_source` object's bytes, from `{` to after `}`. */
  sourceStart: number;
  sourceEnd: number;
  /** `_source` has a key `_id` or `_index` of its own: a row's would replace it in place. */
  sourceHasIdentityKey: boolean;
  /** `_source` has an array-index key ("0", "17"): JSON.stringify writes those before the others. */
  sourceHasIndexKey: boolean;
  /** No whitespace outside strings anywhere in the bytes: as compact as JSON.stringify writes. */
  compact: boolean;
}

interface HitBytesFailure {
  ok: false;
  reason: HitBytesRefusal;
}

export type HitBytesResult = HitBytes | HitBytesFailure;

const refused = (reason: HitBytesRefusal): HitBytesFailure => ({ ok: false, reason });
/** The refusals a failure position names; any other is JSON.parse's own. */
const REFUSALS = new Map<number, HitBytesRefusal>([
  [JSON_FAILURE.notUtf8, "utf8"],
  [JSON_FAILURE.tooDeep, "depth"],
  [JSON_FAILURE.repeatedKey, "keys"],
]);
const refusal = (position: number): HitBytesFailure => refused(REFUSALS.get(position) ?? "syntax");

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
  i = fields.walk(json, i);
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
