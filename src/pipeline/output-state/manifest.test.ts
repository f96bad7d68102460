import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { manifestTotals } from "./manifest.js";
import type { ManifestFile, ManifestSlice } from "./manifest-schema.js";

const slice = (id: number, expected: number | null): ManifestSlice => ({
  id: `s${id}`,
  start: "2024-01-01T00:00:00.000Z",
  end: "2024-01-02T00:00:00.000Z",
  expected,
  read: 0,
  duplicates: 0,
  written: 0,
  files: 0,
});

const file = (rows: number, bytes: number): ManifestFile => ({
  path: "f",
  slice: "s0",
  rows,
  bytes,
  sha256: "",
});

describe("manifestTotals", () => {
  it("counts slices and files, sums rows and bytes, and knows the expected count only when every slice does", () => {
    const count = fc.nat({ max: 1_000_000 });
    fc.assert(
      fc.property(
        fc.array(fc.option(count, { nil: null })),
        fc.array(fc.tuple(count, count)),
        (expected, sizes) => {
          const totals = manifestTotals(
            expected.map((value, id) => slice(id, value)),
            sizes.map(([rows, bytes]) => file(rows, bytes)),
          );
          const unknown = expected.includes(null);
          expect(totals).toEqual({
            slices: expected.length,
            files: sizes.length,
            rows: sizes.reduce((sum, [rows]) => sum + rows, 0),
            bytes: sizes.reduce((sum, [, bytes]) => sum + bytes, 0),
            expected: unknown ? null : expected.reduce<number>((sum, value) => sum + (value ?? 0), 0),
          });
        },
      ),
    );
  });
});
