// Each column type's Parquet physical type: how its values are written PLAIN, how big they are, whether a
// dictionary can pay, and their statistics (min and max as the footer writer takes them).
import type { ParquetType } from "hyparquet";
import type { ColumnType } from "../../core/contracts.js";
import type { ParquetValue } from "../coerce-value.js";
import type { PageBytes } from "./bytes.js";

type Bound = string | number | bigint | boolean;

interface ValueStatistics {
  min_value?: Bound;
  max_value?: Bound;
  nan_count?: bigint;
}

export interface Physical {
  type: ParquetType;
  /** Bytes per PLAIN value; undefined for byte arrays, whose size is their text's. */
  size: number | undefined;
  dictionary: boolean;
  write: (out: PageBytes, value: ParquetValue) => void;
  /** PLAIN values `from` to `to` of `values`, none null. */
  writeRange: (out: PageBytes, values: readonly ParquetValue[], from: number, to: number) => void;
  statistics: (values: readonly ParquetValue[]) => ValueStatistics;
}

function rangeWriter(write: Physical["write"]): Physical["writeRange"] {
  return (out, values, from, to) => {
    for (let i = from; i < to; i++) write(out, values[i] as ParquetValue);
  };
}

/** Min and max by `<`, for numbers and bigints (NaN is left out by the caller). */
function minMax(values: readonly ParquetValue[]): ValueStatistics {
  if (values.length === 0) return {};
  let min = values[0] as number | bigint;
  let max = min;
  for (const value of values as readonly (number | bigint)[]) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return { min_value: min, max_value: max };
}

/** A code unit from the surrogates on, where `<` and code point order can disagree. */
const PAST_SURROGATES = /[\ud800-\uffff]/;

const writeText = (out: PageBytes, value: ParquetValue): void => out.text(value as string);

const text: Physical = {
  type: "BYTE_ARRAY",
  size: undefined,
  dictionary: true,
  write: writeText,
  writeRange: rangeWriter(writeText),
  statistics: (values) => {
    if (values.length === 0) return {};
    const texts = values as readonly string[];
    let min = texts[0] as string;
    let max = min;
    // `<` orders UTF-16 code units, which is code point order for texts without surrogates or
    // characters past them; the others are ordered by compareStrings.
    let i = 0;
    for (; i < texts.length; i++) {
      const value = texts[i] as string;
      if (PAST_SURROGATES.test(value)) break;
      if (value < min) min = value;
      else if (value > max) max = value;
    }
    for (; i < texts.length; i++) {
      const value = texts[i] as string;
      if (compareStrings(value, min) < 0) min = value;
      if (compareStrings(value, max) > 0) max = value;
    }
    return { min_value: min, max_value: max };
  },
};

const writeInt64 = (out: PageBytes, value: ParquetValue): void =>
  typeof value === "bigint" ? out.int64(value) : out.int64FromNumber(value as number);

const int64: Physical = {
  type: "INT64",
  size: 8,
  dictionary: true,
  write: writeInt64,
  writeRange: rangeWriter(writeInt64),
  statistics: minMax,
};

const writeInt32 = (out: PageBytes, value: ParquetValue): void => out.int32(value as number);
const writeDouble = (out: PageBytes, value: ParquetValue): void => out.double(value as number);

const double: Physical = {
  type: "DOUBLE",
  size: 8,
  dictionary: true,
  write: writeDouble,
  writeRange: rangeWriter(writeDouble),
  statistics: (values) => {
    const numbers = values.filter((value) => !Number.isNaN(value));
    const { min_value, max_value } = minMax(numbers);
    // Parquet asks for -0 as a minimum of zero and +0 as a maximum, so either sign is inside the bounds.
    return {
      ...(min_value === undefined ? {} : { min_value: min_value === 0 ? -0 : min_value }),
      ...(max_value === undefined ? {} : { max_value: max_value === 0 ? 0 : max_value }),
      nan_count: BigInt(values.length - numbers.length),
    };
  },
};

const boolean: Physical = {
  type: "BOOLEAN",
  size: 0.125,
  dictionary: false,
  write: () => {
    throw new Error("booleans are written bit-packed, a page at a time");
  },
  // PLAIN booleans are bit-packed, least significant bit first: the only boolean encoding of version 1.
  writeRange: (out, values, from, to) => {
    out.reserve(Math.ceil((to - from) / 8));
    for (let i = from; i < to; i += 8) {
      let byte = 0;
      for (let bit = 0; bit < 8 && i + bit < to; bit++) if (values[i + bit] === true) byte |= 1 << bit;
      out.uint8(byte);
    }
  },
  statistics: (values) =>
    values.length === 0
      ? {}
      : { min_value: values.every((value) => value === true), max_value: values.includes(true) },
};

export const physicalTypes: Readonly<Record<ColumnType, Physical>> = {
  string: text,
  json: text,
  double,
  int64,
  int32: { ...int64, type: "INT32", size: 4, write: writeInt32, writeRange: rangeWriter(writeInt32) },
  boolean,
  timestamp: int64,
};

/**
 * Strings in UTF-8 byte order, which is code point order, as Parquet orders BYTE_ARRAY bounds.
 * JavaScript's `<` compares UTF-16 code units and misorders characters beyond U+FFFF against
 * U+E000..U+FFFF; lone surrogates compare as U+FFFD, as they are written.
 */
function compareStrings(left: string, right: string): number {
  if (left === right) return 0;
  const length = Math.min(left.length, right.length);
  let i = 0;
  while (i < length && left.charCodeAt(i) === right.charCodeAt(i)) i++;
  if (i === length) return left.length - right.length;
  const a = left.charCodeAt(i);
  const b = right.charCodeAt(i);
  // Below the surrogates both sides order as code points do; from them on, their UTF-8 bytes tell
  // (Buffer.from writes a lone surrogate as U+FFFD).
  if (a < 0xd800 && b < 0xd800) return a - b;
  return Buffer.compare(Buffer.from(left), Buffer.from(right));
}
