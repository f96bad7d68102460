// The hit's own fields as the bytes reader finds them: which key names which field (escaped keys
// compared decoded) and where the last of each was read.
import { Buffer } from "node:buffer";
import type { JsonBytes } from "./json-bytes.js";
import type { HitShape } from "./hit-bytes-result.js";

export type Field = "_id" | "_index" | "_score" | "_source" | "sort";
const FIELDS: readonly Field[] = ["_id", "_index", "_score", "_source", "sort"];
const FIELD_BYTES = FIELDS.map((field) => Buffer.from(field));
/** Field positions when there is no usable value: */
export const ABSENT = -1;
/** A value of the wrong type: its key was there, so the shape check fails. */
export const WRONG = -2;

/** Where the hit's own fields were read, the last of each (ABSENT or WRONG when not usable). */
export class HitFields {
  constructor(readonly shape: HitShape) {}
  id = ABSENT;
  idEnd = 0;
  idEscaped = false;
  index = ABSENT;
  indexEnd = 0;
  indexEscaped = false;
  score: number | null | undefined = undefined;
  /** `_score` is neither null nor a finite number. */
  scoreWrong = false;
  sort = ABSENT;
  sortEnd = 0;
  source = ABSENT;
  sourceEnd = 0;
  sourceHasIdentityKey = false;
  sourceHasIndexKey = false;
  sourceEmpty = true;
  sortValid = false;
}

export function fieldOf(json: JsonBytes, from: number, to: number): Field | undefined {
  if (json.escaped) {
    const key = json.text(from + 1, to - 1, true, json.wide);
    return FIELDS.find((field) => field === key);
  }
  for (let f = 0; f < FIELDS.length; f++)
    if (json.matches(from + 1, to - 1, FIELD_BYTES[f] as Buffer)) return FIELDS[f];
  return undefined;
}
