// Coerces a record value to a column type for Parquet: a sensible conversion, or null, never a throw.
import type { ColumnType } from "../core/contracts.js";

/** A value as hyparquet-writer takes it for the column's physical type. */
export type ParquetValue = string | number | bigint | boolean | null;

export type Coercer = (value: unknown) => ParquetValue;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** The range of a JavaScript Date, which a timestamp column keeps to. */
const MAX_EPOCH_MILLIS = 8.64e15;

/** The coercer for each column type, chosen once per column, not per value. */
export const coercers: Readonly<Record<ColumnType, Coercer>> = {
  string: toText,
  json: toJsonText,
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
  return toJsonText(value);
}

function toJsonText(value: unknown): ParquetValue {
  if (value === undefined) return null;
  try {
    return (
      JSON.stringify(value, (_key, inner: unknown) =>
        typeof inner === "bigint" ? inner.toString() : inner,
      ) ?? null
    );
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

function toInt64(value: unknown): ParquetValue {
  if (typeof value === "bigint") return value >= INT64_MIN && value <= INT64_MAX ? value : null;
  if (typeof value === "number") {
    // Beyond 2^63 a double is not an int64; truncating fractions matches what warehouses do on cast.
    return Number.isFinite(value) && Math.abs(value) < 2 ** 63 ? BigInt(Math.trunc(value)) : null;
  }
  if (typeof value === "string") {
    const text = value.trim();
    if (/^[-+]?\d+$/.test(text)) return toInt64(BigInt(text));
    return text === "" ? null : toInt64(Number(text));
  }
  return null;
}

function toInt32(value: unknown): ParquetValue {
  const number = typeof value === "number" ? value : asDouble(value);
  if (typeof number !== "number" || !Number.isFinite(number)) return null;
  const truncated = Math.trunc(number);
  return truncated >= INT32_MIN && truncated <= INT32_MAX ? truncated : null;
}

function toBoolean(value: unknown): ParquetValue {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isNaN(value) ? null : value !== 0;
  if (typeof value === "string") {
    const text = value.trim().toLowerCase();
    if (text === "true" || text === "1") return true;
    if (text === "false" || text === "0") return false;
  }
  return null;
}

/** Timestamps arrive as ISO strings (`2026-11-21T10:00:00.123Z`) or epoch milliseconds. */
function toEpochMillis(value: unknown): ParquetValue {
  let millis: number;
  if (typeof value === "number") millis = value;
  else if (typeof value === "string")
    millis = /^-?\d+$/.test(value.trim()) ? Number(value) : Date.parse(value);
  else if (value instanceof Date) millis = value.getTime();
  else if (typeof value === "bigint") millis = Number(value);
  else return null;
  return Number.isFinite(millis) && Math.abs(millis) <= MAX_EPOCH_MILLIS ? Math.trunc(millis) : null;
}

/** Whether a timestamp column takes `millis` as it is: a whole number of milliseconds within its range. */
export function isEpochMillis(millis: number): boolean {
  return Number.isInteger(millis) && Math.abs(millis) <= MAX_EPOCH_MILLIS;
}
