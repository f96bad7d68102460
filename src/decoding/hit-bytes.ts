// Reads one hit from its bytes in a single pass, without building the parsed object: checks that they
// are exactly one JSON value (RFC 8259) and an object of the hit's shape, and takes out what an output
// needs to splice the row from the service's own bytes. What it cannot vouch for it refuses with a
// reason, and the caller falls back to JSON.parse and the wire schema, which decide and name the field.
import { Buffer } from "node:buffer";
import { JsonBytes } from "./json-bytes.js";
import { JSON_FAILURE } from "./json-failures.js";
import type { UniqueKeys } from "./json-keys.js";
import * as token from "./json-bytes.js";

import type { HitBytesFailure, HitBytesRefusal, HitBytesResult, HitShape } from "./hit-bytes-result.js";
import { fieldOf, HitFields, WRONG } from "./hit-bytes-fields.js";
import type { Field } from "./hit-bytes-fields.js";

export type {
  HitBytes,
  HitBytesFailure,
  HitBytesRefusal,
  HitBytesResult,
  HitShape,
} from "./hit-bytes-result.js";

const [ID, INDEX] = [Buffer.from("_id"), Buffer.from("_index")];
const INDEX_KEY = /^(?:0|[1-9]\d*)$/;

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
const SYNTAX = JSON_FAILURE.unexpected; // what the hit's own steps refuse, JSON.parse refuses too

/**
 * `_source`'s object from its `{`: its top-level keys are checked for what a splice must know, and,
 * with `keys`, every object's keys in it are checked to be named once.
 */
function readSource(json: JsonBytes, i: number, fields: HitFields, keys: UniqueKeys | undefined): number {
  fields.sourceHasIdentityKey = false;
  fields.sourceHasIndexKey = false;
  i = json.space(i + 1);
  fields.sourceEmpty = json.at(i) === token.CLOSE_OBJECT;
  if (fields.sourceEmpty) return i + 1;
  keys?.reset(json.bytes);
  keys?.open();
  json.keys = keys;
  i = readMembers(json, i, fields, keys);
  json.keys = undefined;
  return i;
}

function readMembers(json: JsonBytes, i: number, fields: HitFields, keys: UniqueKeys | undefined): number {
  for (;;) {
    if (json.at(i) !== token.QUOTE) return SYNTAX;
    const from = i;
    i = json.string(i);
    if (i < 0) return i;
    if (keys !== undefined && (json.escaped || !keys.add(from + 1, i - 1))) return repeatedKey;
    const first = json.bytes[from + 1] as number;
    if (json.escaped || (first >= 0x30 && first <= 0x39)) {
      // Rare, so decoded: an escaped "_\u0069d" or "\u0031" counts as well.
      const key = json.text(from + 1, i - 1, json.escaped, json.wide);
      if (key === "_id" || key === "_index") fields.sourceHasIdentityKey = true;
      if (INDEX_KEY.test(key)) fields.sourceHasIndexKey = true;
    } else if (json.matches(from + 1, i - 1, ID) || json.matches(from + 1, i - 1, INDEX))
      fields.sourceHasIdentityKey = true;
    i = json.space(i);
    if (json.at(i) !== token.COLON) return SYNTAX;
    i = json.value(json.space(i + 1), 2);
    if (i < 0) return i;
    i = json.space(i);
    const next = json.at(i);
    if (next === token.CLOSE_OBJECT) return i + 1;
    if (next !== token.COMMA) return SYNTAX;
    i = json.space(i + 1);
  }
}

/** A v3 `sort` array from its `[`: notes whether it holds only strings, finite numbers and nulls. */
function readSort(json: JsonBytes, i: number, fields: HitFields): number {
  fields.sortValid = true;
  i = json.space(i + 1);
  if (json.at(i) === token.CLOSE_ARRAY) return i + 1;
  for (;;) {
    const c = json.at(i);
    const from = i;
    if (c === token.QUOTE) i = json.string(i);
    else if (c === 0x6e) i = json.literal(i, token.NULL);
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      i = json.number(i);
      if (i > 0 && !Number.isFinite(json.numberValue(from, i))) fields.sortValid = false;
    } else {
      fields.sortValid = false;
      i = json.value(i, 2);
    }
    if (i < 0) return i;
    i = json.space(i);
    const next = json.at(i);
    if (next === token.CLOSE_ARRAY) return i + 1;
    if (next !== token.COMMA) return SYNTAX;
    i = json.space(i + 1);
  }
}

/** One hit's value: where it ends, with what was found noted in `fields`. */
function readValue(
  json: JsonBytes,
  field: Field | undefined,
  i: number,
  fields: HitFields,
  keys: UniqueKeys | undefined,
): number {
  const c = json.at(i);
  const from = i;
  if (field === "_id" || field === "_index") {
    i = c === token.QUOTE ? json.string(i) : json.value(i, 1);
    const at = c === token.QUOTE ? from : WRONG;
    if (field === "_id") {
      fields.id = at;
      fields.idEnd = i;
      fields.idEscaped = json.escaped;
    } else {
      fields.index = at;
      fields.indexEnd = i;
      fields.indexEscaped = json.escaped;
    }
  } else if (field === "_score") {
    const isNumber = c === 0x2d || (c >= 0x30 && c <= 0x39);
    i = isNumber ? json.number(i) : json.value(i, 1);
    fields.score = isNumber && i > 0 ? json.numberValue(from, i) : c === 0x6e ? null : undefined;
    fields.scoreWrong = fields.score === undefined || !Number.isFinite(fields.score ?? 0);
  } else if (field === "_source") {
    i = c === token.OPEN_OBJECT ? readSource(json, i, fields, keys) : json.value(i, 1);
    fields.source = c === token.OPEN_OBJECT ? from : WRONG;
    fields.sourceEnd = i;
  } else if (field === "sort" && fields.shape === "v3Hit") {
    i = c === token.OPEN_ARRAY ? readSort(json, i, fields) : json.value(i, 1);
    fields.sort = c === token.OPEN_ARRAY && fields.sortValid ? from : WRONG;
    fields.sortEnd = i;
  } else i = json.value(i, 1);
  return i;
}

/** Whether the fields read are what the hit schema of `shape` accepts (JSON.parse + the schema). */
function fitsShape(fields: HitFields, shape: HitShape): boolean {
  if (fields.id < 0 || fields.index < 0 || fields.source < 0) return false;
  if (fields.scoreWrong || (fields.score === undefined && shape === "v3Hit")) return false;
  return shape === "hit" || fields.sort >= 0;
}

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
  const fields = new HitFields(shape);
  let i = json.space(start);
  if (json.at(i) !== token.OPEN_OBJECT) {
    // Any other value: the shape check refuses it if JSON.parse accepts it.
    i = json.value(i, 0);
    if (i < 0) return refusal(i);
    return refused(json.space(i) === end ? "shape" : "syntax");
  }
  i = json.space(i + 1);
  if (json.at(i) === token.CLOSE_OBJECT) i++;
  else
    for (;;) {
      if (json.at(i) !== token.QUOTE) return refused("syntax");
      const from = i;
      i = json.string(i);
      if (i < 0) return refusal(i);
      const field = fieldOf(json, from, i);
      i = json.space(i);
      if (json.at(i) !== token.COLON) return refused("syntax");
      i = readValue(json, field, json.space(i + 1), fields, keys);
      if (i < 0) return refusal(i);
      i = json.space(i);
      const next = json.at(i);
      if (next === token.CLOSE_OBJECT) {
        i++;
        break;
      }
      if (next !== token.COMMA) return refused("syntax");
      i = json.space(i + 1);
    }
  if (!prefix && json.space(i) !== end) return refused("syntax");
  if (!fitsShape(fields, shape)) return refused("shape");
  // Of `_source`, `_id` and `_index` (the bytes a splice copies), or of a `_source` given twice.
  if (keys !== undefined && json.loneSurrogate) return refused("surrogate");
  return {
    ok: true,
    end: i,
    index: json.text(fields.index + 1, fields.indexEnd - 1, fields.indexEscaped, true),
    id: json.text(fields.id + 1, fields.idEnd - 1, fields.idEscaped, true),
    score: fields.score,
    sortStart: shape === "v3Hit" ? fields.sort : -1,
    sortEnd: shape === "v3Hit" ? fields.sortEnd : -1,
    sourceStart: fields.source,
    sourceEnd: fields.sourceEnd,
    sourceHasIdentityKey: fields.sourceHasIdentityKey,
    sourceHasIndexKey: fields.sourceHasIndexKey,
    sourceEmpty: fields.sourceEmpty,
    compact: json.compact,
  };
}
