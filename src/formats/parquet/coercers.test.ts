import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coercers } from "../coerce-value.js";
import { isKeptUnchanged } from "../../decoding/hit-column-values.js";
import { int64Coercer, keptUnchanged, parquetCoercers, timestampCoercer } from "./coercers.js";

describe("timestamps read digit by digit", () => {
  it("give what the timestamp coercer gives, for every form and edge", () => {
    const samples: unknown[] = [
      "2026-11-21T10:00:00.123Z",
      "2026-11-21T10:00:00Z",
      "2026-02-28T23:59:59.999Z",
      "2026-02-29T00:00:00.000Z",
      "2026-02-30T00:00:00.000Z",
      "2024-02-29T12:00:00.000Z",
      "2026-04-31T00:00:00Z",
      "2026-03-01T24:00:00.000Z",
      "2026-13-01T00:00:00.000Z",
      "2026-00-10T00:00:00.000Z",
      "2026-03-01T23:60:00.000Z",
      "2026-03-01T23:59:60.000Z",
      "0099-01-01T00:00:00.000Z",
      "0100-01-01T00:00:00.000Z",
      "2026-03-01T10:00:00.123+01:00",
      "2026-03-01 10:00:00.123Z",
      "2026-03-01T10:00:00,123Z",
      "2026-0a-01T10:00:00.123Z",
      "2026-03-01T10:00:00.12aZ",
      "+02026-03-01T10:00:00Z",
      "1763719200000",
      1763719200000,
      "",
      null,
      undefined,
      true,
    ];
    for (let day = 1; day <= 31; day++)
      samples.push(
        `2026-01-${String(day).padStart(2, "0")}T${String(day % 24).padStart(2, "0")}:07:09.0${day}Z`,
      );
    for (const sample of samples)
      expect(timestampCoercer(sample), String(sample)).toBe(coercers.timestamp(sample));
  });
});

describe("timestamps of the same day in a row", () => {
  it("give the coercer's value whichever day came before, before 1970 and up to year 9999", () => {
    const days = ["2026-03-01", "2026-03-02", "1969-12-31", "1970-01-01", "9999-12-28", "0100-01-01"];
    const times = ["00:00:00.000", "23:59:59.999", "12:34:56.789", "00:00:01"];
    const samples: string[] = [];
    for (const day of [...days, ...days.reverse()])
      for (const time of times) samples.push(`${day}T${time}Z`, `${days[0]}T${time}Z`, `${day}T${time}Z`);
    for (const sample of samples) expect(timestampCoercer(sample), sample).toBe(coercers.timestamp(sample));
  });
});

describe("int64 values", () => {
  it("are the int64 coercer's, as numbers within 2^53 and bigints beyond", () => {
    const samples: unknown[] = [
      0,
      -0,
      1,
      -1,
      2 ** 53 - 1,
      2 ** 53,
      -(2 ** 53),
      1.9,
      -1.9,
      2 ** 63,
      1e300,
      NaN,
    ];
    samples.push(
      "42",
      " 7 ",
      "-9007199254740993",
      "9223372036854775807",
      "9223372036854775808",
      "1e3",
      "x",
      "",
    );
    samples.push(5n, 2n ** 60n, 2n ** 64n, null, undefined, true, {});
    for (const sample of samples) {
      const refusal = (coerce: () => unknown): string | undefined => {
        try {
          coerce();
          return undefined;
        } catch (error) {
          return (error as { code?: string }).code;
        }
      };
      // A fraction, a number past int64 or a double past 2^53 is refused by both, never rounded.
      const refused = refusal(() => coercers.int64(sample));
      expect(
        refusal(() => int64Coercer(sample)),
        String(sample),
      ).toBe(refused);
      if (refused !== undefined) {
        expect(refused).toBe("SINK_VALUE_NOT_INT64");
        continue;
      }
      const expected = coercers.int64(sample);
      const got = int64Coercer(sample);
      expect(got === null ? null : BigInt(got as number | bigint), String(sample)).toBe(expected);
      if (typeof got === "number") expect(Number.isSafeInteger(got) && !Object.is(got, -0)).toBe(true);
      if (typeof got === "bigint")
        expect(got > BigInt(Number.MAX_SAFE_INTEGER) || got < -BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    }
  });
});

describe("values a coercer keeps unchanged", () => {
  it("are exactly what each column type's coercer returns as it is", () => {
    const samples: unknown[] = [
      "",
      "text",
      "2026-11-21T10:00:00.123Z",
      "12",
      0,
      -0,
      1.5,
      -7,
      NaN,
      Infinity,
      1763719200000,
      8.64e15,
      -8.64e15,
      8.64e15 + 2,
      2 ** 53 + 2,
      12n,
      true,
      null,
      undefined,
      { a: 1 },
      [1],
    ];
    for (const type of Object.keys(keptUnchanged) as (keyof typeof keptUnchanged)[]) {
      for (const value of samples) {
        if (!isKeptUnchanged(keptUnchanged[type], value)) continue;
        // Object.is: a kept -0 or NaN is the same value, not an equal one.
        expect(Object.is(parquetCoercers[type](value), value), `${type} ${String(value)}`).toBe(true);
      }
    }
    // Each class keeps something, so the check above is not empty.
    expect(isKeptUnchanged(keptUnchanged.string, "text")).toBe(true);
    expect(isKeptUnchanged(keptUnchanged.double, -0)).toBe(true);
    expect(isKeptUnchanged(keptUnchanged.timestamp, 1763719200000)).toBe(true);
    expect(isKeptUnchanged(keptUnchanged.timestamp, 1.5)).toBe(false);
    expect(isKeptUnchanged(keptUnchanged.timestamp, 8.64e15 + 2)).toBe(false);
  });
});

describe("int32 values", () => {
  // Regression: the int32 coercer truncated fractions (1.9 → 1) and wrote null past the range, where
  // int64 refuses; an `integer` column now follows int64's rule within its own range.
  const refusal = (value: unknown): string | undefined => {
    try {
      parquetCoercers.int32(value);
      return undefined;
    } catch (error) {
      return (error as { code?: string }).code;
    }
  };

  it("are written exactly within the int32 range, from numbers, bigints and integer text", () => {
    const exact: [unknown, number | null][] = [
      [0, 0],
      [-0, 0],
      [2 ** 31 - 1, 2 ** 31 - 1],
      [-(2 ** 31), -(2 ** 31)],
      [5.0, 5],
      [12n, 12],
      [" 42 ", 42],
      ["-2147483648", -(2 ** 31)],
      ["1e3", 1000],
      ["x", null],
      ["", null],
      [true, null],
      [{}, null],
      [null, null],
    ];
    for (const [value, expected] of exact) expect(parquetCoercers.int32(value), String(value)).toBe(expected);
    expect(Object.is(parquetCoercers.int32(-0), 0)).toBe(true);
  });

  it("are refused with SINK_VALUE_NOT_INT32 when a fraction or past the range, never truncated or wrapped", () => {
    for (const value of [1.9, -1.9, 2 ** 31, -(2 ** 31) - 1, 2n ** 31n, "2147483648", "1.5", NaN, Infinity])
      expect(refusal(value), String(value)).toBe("SINK_VALUE_NOT_INT32");
  });

  it("hold for every number: exact when int32 holds it, refused otherwise", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.double(), fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n })),
        (value) => {
          const holds =
            typeof value === "bigint"
              ? value >= -(2n ** 31n) && value < 2n ** 31n
              : Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
          if (!holds) expect(refusal(value)).toBe("SINK_VALUE_NOT_INT32");
          else expect(parquetCoercers.int32(value)).toBe(Number(value) === 0 ? 0 : Number(value));
          // The same value as text is read the same way.
          if (typeof value !== "bigint" && Number.isFinite(value))
            expect(refusal(String(value))).toBe(holds ? undefined : "SINK_VALUE_NOT_INT32");
        },
      ),
      { numRuns: 2000 },
    );
  });
});
