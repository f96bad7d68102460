// Finds a member of a JSON object by reading the object backwards from its end, so that what a page's
// envelope says after its hits (the cursor under `meta`) is known from the last bytes of the body,
// before the hits before it are decoded. JSON reads backwards without ambiguity: a quote closes or
// opens a string unless an odd number of backslashes comes right before it, and no byte of a UTF-8
// sequence is a quote. Nothing here is trusted: the value found only lets the next request go out
// early, and the pager checks it against the envelope the decoder parses (point-in-time.ts).
import type { Buffer } from "node:buffer";
import { BACKSLASH, isSpace, QUOTE } from "./hit-scanner-bytes.js";

/** Members read back from the end before giving up: an envelope has a handful. */
const MAX_MEMBERS = 32;

/** A byte of a number or of `true`, `false`, `null`. */
function isScalarByte(byte: number): boolean {
  const lower = byte | 0x20;
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (lower >= 0x61 && lower <= 0x7a) ||
    byte === 0x2b ||
    byte === 0x2d ||
    byte === 0x2e
  );
}

function spaceBack(bytes: Uint8Array, i: number): number {
  while (i >= 0 && isSpace(bytes[i] as number)) i--;
  return i;
}

/** The opening quote of the string whose closing quote is at `close`, or -1 when it starts before. */
function stringStart(bytes: Buffer, close: number): number {
  let from = close - 1;
  while (from >= 0) {
    const quote = bytes.lastIndexOf(QUOTE, from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (quote - backslashes - 1 >= 0 && bytes[quote - backslashes - 1] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote - 1;
  }
  return -1;
}

/** The first byte of the value whose last byte is at `last`, or -1 when it starts before the bytes. */
function valueStart(bytes: Buffer, last: number): number {
  const byte = bytes[last];
  if (byte === QUOTE) return stringStart(bytes, last);
  if (byte === 0x7d || byte === 0x5d) {
    let depth = 0;
    for (let i = last; i >= 0; i--) {
      const c = bytes[i];
      if (c === QUOTE) {
        i = stringStart(bytes, i);
        if (i < 0) return -1;
      } else if (c === 0x7d || c === 0x5d) depth++;
      else if (c === 0x7b || c === 0x5b) {
        depth--;
        if (depth === 0) return i;
      }
    }
    return -1;
  }
  // A number or a literal: the run of bytes they are made of.
  let i = last;
  while (i >= 0 && isScalarByte(bytes[i] as number)) i--;
  return i === last ? -1 : i + 1;
}

function parsed(bytes: Buffer, from: number, to: number): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(bytes.toString("utf8", from, to)) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * The value of the member `key` of the object that `bytes` end with, when it is among the members
 * after the last one that starts before `bytes` do; undefined otherwise (not found, or the bytes are
 * not JSON there). Where a key repeats, the last one counts, as with JSON.parse.
 * @example
 * trailingMember(Buffer.from('{"data":{"hits":[…]},"meta":{"pagination":{"pit_id":"p1"}}}'), "meta");
 * // → { pagination: { pit_id: "p1" } }
 */
export function trailingMember(bytes: Buffer, key: string): unknown {
  let i = spaceBack(bytes, bytes.length - 1);
  if (bytes[i] !== 0x7d) return undefined;
  i -= 1;
  for (let member = 0; member < MAX_MEMBERS; member++) {
    i = spaceBack(bytes, i);
    if (i < 0) return undefined;
    const valueEnd = i + 1;
    const valueFrom = valueStart(bytes, i);
    if (valueFrom < 0) return undefined;
    i = spaceBack(bytes, valueFrom - 1);
    if (bytes[i] !== 0x3a) return undefined;
    i = spaceBack(bytes, i - 1);
    if (bytes[i] !== QUOTE) return undefined;
    const keyFrom = stringStart(bytes, i);
    if (keyFrom < 0) return undefined;
    const name = parsed(bytes, keyFrom, i + 1);
    if (name === undefined) return undefined;
    if (name.value === key) return parsed(bytes, valueFrom, valueEnd)?.value;
    i = spaceBack(bytes, keyFrom - 1);
    if (bytes[i] !== 0x2c) return undefined;
    i -= 1;
  }
  return undefined;
}
