import { describe, expect, it } from "vitest";
import { describeChangedSlice, findChangedSlices } from "./recheck.js";

const slice = (hour: number) => ({
  index: hour,
  id: `20261120T${String(hour).padStart(2, "0")}0000Z`,
  start: new Date(Date.UTC(2026, 10, 20, hour)),
  end: new Date(Date.UTC(2026, 10, 20, hour + 1)),
});

describe("findChangedSlices", () => {
  it("returns the committed slices whose count changed, either way, and nothing else", () => {
    const committed: Record<string, number> = { [slice(0).id]: 10, [slice(1).id]: 20, [slice(2).id]: 30 };
    const changed = findChangedSlices(
      [
        { slice: slice(0), expected: 10 },
        { slice: slice(1), expected: 26 },
        { slice: slice(2), expected: 29 },
        { slice: slice(3), expected: 5 },
        { slice: slice(4), expected: undefined },
      ],
      (id) => committed[id],
    );
    expect(changed.map(describeChangedSlice)).toEqual([
      "20261120T010000Z: 20 → 26 (+6)",
      "20261120T020000Z: 30 → 29 (-1)",
    ]);
  });
});
