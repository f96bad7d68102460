// A timestamp is an instant whatever zone the exporter runs in: text without an offset is UTC, as the
// generated DDL reads it (docs/warehouse.md). Regression: the coercer read `2026-11-27T10:00:00` with
// Date.parse, i.e. in the process's local time, so under TZ=Europe/Berlin it wrote 09:00 UTC.
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Column } from "../core/contracts.js";
import type { ColumnValue as ParquetValue } from "../core/record-batch.js";
import { coercers } from "../formats/coerce-value.js";
import { HitColumnsReader } from "./hit-columns-reader.js";
import { DayStarts, isoMillis } from "./iso-millis.js";
import { isoTextMillis } from "./iso-text.js";
import { parquetColumnCoercers, timestampCoercer } from "../formats/parquet/coercers.js";

const ZONES = ["Europe/Berlin", "America/New_York", "Asia/Kathmandu", "Pacific/Chatham", "UTC"];
const savedZone = process.env.TZ;

/** Runs `check` with the process in `zone` (Node applies a new TZ to Date at once). */
function inZone(zone: string, check: () => void): void {
  process.env.TZ = zone;
  try {
    check();
  } finally {
    process.env.TZ = savedZone;
    if (savedZone === undefined) delete process.env.TZ;
  }
}

afterEach(() => {
  if (savedZone === undefined) delete process.env.TZ;
  else process.env.TZ = savedZone;
});

describe("a timestamp without an offset", () => {
  beforeEach(() => {
    process.env.TZ = "Europe/Berlin";
  });

  it("is UTC for the coercer and its fast path, whatever the process's zone (was local time)", () => {
    expect(new Date(2026, 10, 27).getTimezoneOffset()).toBe(-60); // the zone really is in force
    const utc = Date.UTC(2026, 10, 27, 10);
    for (const text of [
      "2026-11-27T10:00:00",
      "2026-11-27T10:00:00.000",
      "2026-11-27 10:00:00",
      "2026-11-27T10:00",
    ]) {
      expect(coercers.timestamp(text), text).toBe(utc);
      expect(timestampCoercer(text), text).toBe(utc);
    }
  });

  it("is midnight UTC when it is a date alone", () => {
    expect(coercers.timestamp("2026-11-27")).toBe(Date.UTC(2026, 10, 27));
  });

  it("is read by the hit columns reader as the same instant", () => {
    const columns: Column[] = [{ name: "at", type: "timestamp" }];
    const reader = new HitColumnsReader(columns, true, parquetColumnCoercers);
    const hit = Buffer.from(
      `{"_id":"a","_index":"i","_score":null,"sort":[1],"_source":{"at":"2026-11-27T10:00:00"}}`,
    );
    const into: ParquetValue[][] = [[]];
    expect(reader.read(hit, 0, hit.length, into).failure).toBeUndefined();
    expect(into[0]).toEqual([Date.UTC(2026, 10, 27, 10)]);
  });
});

describe("calendar checks", () => {
  it("refuse days the month lacks instead of rolling them into the next month", () => {
    expect(coercers.timestamp("2026-02-30T00:00:00Z")).toBeNull();
    expect(coercers.timestamp("2026-04-31T00:00:00Z")).toBeNull();
    expect(coercers.timestamp("2024-02-29T00:00:00Z")).toBe(Date.UTC(2024, 1, 29));
    expect(coercers.timestamp("2026-03-01T24:00:00Z")).toBe(Date.UTC(2026, 2, 2));
    expect(coercers.timestamp("2026-03-01T24:00:01Z")).toBeNull();
    expect(coercers.timestamp("0099-01-01T00:00:00Z")).toBe(new Date(0).setUTCFullYear(99, 0, 1));
    expect(coercers.timestamp("not a time")).toBeNull();
    expect(coercers.timestamp("2026-11-27T10:00:00+05")).toBe(Date.UTC(2026, 10, 27, 5));
  });
});

/** The instant `millis` written in one of the accepted ISO forms, and the instant it means. */
const isoText = fc
  .record({
    millis: fc.integer({ min: Date.UTC(100, 0, 1), max: Date.UTC(9999, 11, 30) }),
    offset: fc.oneof(
      fc.constant<"Z" | "none">("Z"),
      fc.constant<"Z" | "none">("none"),
      fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
    ),
    fractionDigits: fc.integer({ min: 0, max: 9 }),
    extra: fc.integer({ min: 0, max: 999_999 }),
  })
  .map(({ millis, offset, fractionDigits, extra }) => {
    const minutes = typeof offset === "number" ? offset : 0;
    const wall = new Date(millis + minutes * 60_000).toISOString().slice(0, 23); // yyyy-mm-ddThh:mm:ss.sss
    const digits = (wall.slice(20) + String(extra).padStart(6, "0")).slice(0, fractionDigits);
    const base = fractionDigits === 0 ? wall.slice(0, 19) : `${wall.slice(0, 19)}.${digits}`;
    const abs = Math.abs(minutes);
    const zone =
      offset === "Z"
        ? "Z"
        : offset === "none"
          ? ""
          : `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
    // The fraction keeps at most its first three digits, so the instant is cut to what they say.
    const unit = 10 ** Math.max(0, 3 - fractionDigits);
    const kept = millis - (((millis % unit) + unit) % unit);
    return { text: base + zone, instant: kept };
  });

describe("every accepted ISO form, in every zone", () => {
  it("gives the instant on the bytes fast path, the text fast path, the coercer and the columns reader", () => {
    const days = new DayStarts();
    const reader = new HitColumnsReader([{ name: "at", type: "timestamp" }], true, parquetColumnCoercers);
    for (const zone of ZONES)
      inZone(zone, () => {
        fc.assert(
          fc.property(isoText, ({ text, instant }) => {
            expect(coercers.timestamp(text)).toBe(instant);
            expect(timestampCoercer(text)).toBe(instant);
            expect(isoTextMillis(text)).toBe(instant);
            const bytes = Buffer.from(text);
            const fast = isoMillis(bytes, 0, bytes.length, days);
            if (!Number.isNaN(fast)) expect(fast).toBe(instant);
            const hit = Buffer.from(
              `{"_id":"a","_index":"i","_score":1,"sort":[1],"_source":{"at":"${text}"}}`,
            );
            const into: ParquetValue[][] = [[]];
            expect(reader.read(hit, 0, hit.length, into).failure).toBeUndefined();
            expect(into[0]).toEqual([instant]);
          }),
          { numRuns: 300 },
        );
      });
  });
});
