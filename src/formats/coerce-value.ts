// Coerces a record value to a column type for Parquet: a sensible conversion, or null. The throws are
// the integer columns': a number an int64 or int32 does not hold is never rounded into one (`toInt64`).
import type { ColumnType } from "../core/contracts.js";
import { stringifyExact, wellFormedJson } from "../decoding/json-exact.js";
import { EtlError } from "../errors.js";
import { isoTextMillis } from "../decoding/iso-text.js";
import { MAX_EPOCH_MILLIS } from "../decoding/iso-millis.js";
import type { ColumnValue } from "../core/record-batch.js";

/** A value as hyparquet-writer takes it for the column's physical type. */
export type ParquetValue = ColumnValue;

export type Coercer = (value: unknown) => ParquetValue;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN_BIG = BigInt(INT32_MIN);
const INT32_MAX_BIG = BigInt(INT32_MAX);

/** The coercer for each column type, chosen once per column, not per value. */
export const coercers: Readonly<Record<ColumnType, Coercer>> = {
  string: toText,
  json: toRawJsonText,
  double: asDouble,
  int64: toInt64,
  int32: toInt32,
  boolean: toBoolean,
  timestamp: toEpochMillis,
};

function toText(value: unknown): ParquetValue {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  // An object's JSON, its lone surrogates as U+FFFD, as text columns write them.
  const json = toRawJsonText(value);
  return typeof json === "string" ? wellFormedJson(json) : null;
}

/**
 * A `json` column's text, bigints as their digits (as the service wrote them) and lone surrogates
 * still the `\ud800` escapes JSON.stringify writes: the column buffers replace them with U+FFFD when a
 * row group is taken, and count them (ColumnBuffers).
 */
function toRawJsonText(value: unknown): ParquetValue {
  if (value === undefined) return null;
  try {
    return stringifyExact(value) ?? null;
  } catch {
    // A cycle cannot come from JSON input; if a transform made one, the value is unrepresentable.
    return null;
  }
}

function asDouble(value: unknown): ParquetValue {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

/**
 * The service's integers are exact to the last digit: beyond 2^53 the readers give them as bigints read
 * from the digits (decoding/json-exact.ts), and a number is taken only when it is a whole number a double
 * holds exactly (within 2^53). A number that is a fraction, beyond int64, or a double past 2^53 (whose
 * digits are lost) is not rounded into some int64: the slice fails with SINK_VALUE_NOT_INT64, and the
 * column buffers name the column. Text that is not a number, booleans and objects are null, as before.
 */
function toInt64(value: unknown): ParquetValue {
  if (typeof value === "bigint") {
    if (value >= INT64_MIN && value <= INT64_MAX) return value;
    throw notInt64(value);
  }
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return BigInt(value);
    throw notInt64(value);
  }
  if (typeof value === "string") {
    const number = numberOfText(value);
    return Number.isNaN(number) ? null : toInt64(number);
  }
  return null;
}

/** Integer text as a bigint of its digits (exact), other text as Number reads it (NaN for ""). */
function numberOfText(value: string): number | bigint {
  const text = value.trim();
  if (/^[-+]?\d+$/.test(text)) return BigInt(text);
  return text === "" ? Number.NaN : Number(text);
}

/** The refusal of a value an int64 column cannot hold exactly (see `toInt64`). */
function notInt64(value: number | bigint): EtlError {
  const shown = typeof value === "bigint" ? value.toString() : String(value);
  return new EtlError(
    "SINK_VALUE_NOT_INT64",
    `${shown} is not an int64: only whole numbers from -9223372036854775808 to 9223372036854775807 are written, never rounded`,
  );
}

/**
 * int64's rule within the int32 range (an `integer` field): a whole number, or integer text, that the
 * column holds is written as it is; a fraction or a number past the range is refused with
 * SINK_VALUE_NOT_INT32, never truncated or wrapped. Text that is not a number, booleans and objects are
 * null.
 */
function toInt32(value: unknown): ParquetValue {
  if (typeof value === "number") {
    if (Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) return value === 0 ? 0 : value;
    throw notInt32(value);
  }
  if (typeof value === "bigint") {
    if (value >= INT32_MIN_BIG && value <= INT32_MAX_BIG) return Number(value);
    throw notInt32(value);
  }
  if (typeof value === "string") {
    const number = numberOfText(value);
    return Number.isNaN(number) ? null : toInt32(number);
  }
  return null;
}

/** The refusal of a value an int32 column cannot hold exactly (see `toInt32`). */
function notInt32(value: number | bigint): EtlError {
  return new EtlError(
    "SINK_VALUE_NOT_INT32",
    `${String(value)} is not an int32: only whole numbers from -2147483648 to 2147483647 are written, never truncated or wrapped`,
  );
}

function toBoolean(value: unknown): ParquetValue {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isNaN(value) ? null : value !== 0;
  if (typeof value === "bigint") return value !== 0n;
  if (typeof value === "string") {
    const text = value.trim().toLowerCase();
    if (text === "true" || text === "1") return true;
    if (text === "false" || text === "0") return false;
  }
  return null;
}

/**
 * Timestamps arrive as ISO strings (`2026-11-21T10:00:00.123Z`; one without an offset is UTC, as the
 * DDL reads it, never the exporter's local time: see iso-text.ts) or epoch milliseconds.
 */
function toEpochMillis(value: unknown): ParquetValue {
  let millis: number;
  if (typeof value === "number") millis = value;
  else if (typeof value === "string") {
    const text = value.trim();
    millis = /^-?\d+$/.test(text) ? Number(text) : isoTextMillis(text);
  } else if (value instanceof Date) millis = value.getTime();
  else if (typeof value === "bigint") millis = Number(value);
  else return null;
  return Number.isFinite(millis) && Math.abs(millis) <= MAX_EPOCH_MILLIS ? Math.trunc(millis) : null;
}
