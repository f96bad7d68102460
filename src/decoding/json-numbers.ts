// The value of a JSON number token already checked on UTF-8 bytes (json-bytes.ts checks the grammar):
// the double JSON.parse reads, or, for an integer past 2^53, the exact bigint of its digits.
import type { SlicingBuffer } from "./json-strings.js";

/** A checked number's value in `bytes[from, to)`, as JSON.parse reads it (-0 and Infinity included). */
export function numberValue(bytes: SlicingBuffer, from: number, to: number): number {
  const negative = bytes[from] === 0x2d;
  // Up to 15 digits an integer is exact in a double: no string needed. Otherwise Number reads
  // JSON's number grammar (a subset of its own) to the same double as JSON.parse.
  if (to - from > 15) return Number(bytes.latin1Slice(from, to));
  let value = 0;
  for (let k = negative ? from + 1 : from; k < to; k++) {
    const digit = (bytes[k] as number) - 0x30;
    if (digit >>> 0 > 9) return Number(bytes.latin1Slice(from, to));
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

/**
 * `numberValue`, but an integer written with digits alone and beyond 2^53 is a bigint of those
 * digits, as decoding/json-exact.ts reads JSON text: the service's int64 values stay exact.
 */
export function exactNumberValue(bytes: SlicingBuffer, from: number, to: number): number | bigint {
  const value = numberValue(bytes, from, to);
  // Every unsafe integer has 16 digits or more; fewer is the common case and costs one compare.
  if (to - from < 16 || Number.isSafeInteger(value)) return value;
  for (let k = from; k < to; k++) {
    const c = bytes[k] as number;
    if (c === 0x2e || c === 0x65 || c === 0x45) return value;
  }
  return BigInt(bytes.latin1Slice(from, to));
}
