// Whether JSON bytes copied as they came say what JSON.parse says of them: the check an output makes
// before it splices a record's bytes it also parsed (kinds/row-json.ts).
import { JsonBytes } from "./json-bytes.js";
import type { UniqueKeys } from "./json-keys.js";

/**
 * For `bytes`, one JSON value that JSON.parse accepted: true when no object in it names a key twice
 * (or with escapes, which might spell one) and no string holds a lone surrogate escape. A copy of such
 * bytes is the value JSON.parse makes, and every reader takes it.
 * @example
 * copiesAsParsed(Buffer.from('{"a":1,"a":2}'), new UniqueKeys()) // false: JSON.parse keeps a: 2
 */
export function copiesAsParsed(bytes: Uint8Array, keys: UniqueKeys): boolean {
  const json = new JsonBytes(bytes, bytes.length);
  keys.reset(json.bytes);
  json.keys = keys;
  return json.value(json.space(0), 0) >= 0 && !json.loneSurrogate;
}
