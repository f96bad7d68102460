import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultComponents } from "../components/environment.js";
import { isConfigError } from "../errors.js";
import { fitsGrid, partitionGrid } from "./partition-grid.js";
import { parsePipeline } from "./load-pipeline.js";
import type { Pipeline } from "./pipeline-schema.js";
import { sliceWindow } from "./window.js";

const HOUR = 3_600_000;
const DAY = 86_400_000;
const UNIT_MS = { s: 1_000, m: 60_000, h: HOUR, d: DAY } as const;

/** Every whole number that divides `n`. */
const divisorsOf = (n: number): number[] =>
  Array.from({ length: n }, (_, index) => index + 1).filter((divisor) => n % divisor === 0);

/** The unit (hour or day since the epoch, UTC) an instant falls in. */
const cell = (ms: number, gridMs: number): number => Math.floor(ms / gridMs);

const duration = fc
  .tuple(fc.integer({ min: 1, max: 200 }), fc.constantFrom<keyof typeof UNIT_MS>("s", "m", "h", "d"))
  .map(([amount, unit]) => amount * UNIT_MS[unit]);

describe("the partition grid", () => {
  it("finds the finest time placeholder of the sinks' paths", () => {
    expect(partitionGrid([{ path: "{slice}-{seq}.parquet" }, {}])).toBeUndefined();
    expect(partitionGrid([{ path: "dt={date}/{slice}.parquet" }])).toMatchObject({ ms: DAY, sink: 0 });
    expect(
      partitionGrid([{ path: "dt={date}/{slice}.x" }, { path: "dt={date}/hour={ hour }/{slice}.x" }]),
    ).toEqual({ placeholder: "{hour}", ms: HOUR, sink: 1 });
  });

  it("a slice that fits the grid never crosses it, wherever the window starts and ends", () => {
    const fitting = fc
      .constantFrom(HOUR, DAY)
      .chain((gridMs) => fc.tuple(fc.constantFrom(...divisorsOf(gridMs / 1000)), fc.constant(gridMs)))
      .map(([seconds, gridMs]) => ({ sliceMs: seconds * 1000, gridMs }));
    fc.assert(
      fc.property(
        fitting,
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: 1, max: 3 * DAY }),
        ({ sliceMs, gridMs }, start, length) => {
          expect(fitsGrid(sliceMs, gridMs)).toBe(true);
          // At most 500 slices: the window is cut short for the smallest slices.
          const end = start + Math.min(length, sliceMs * 500);
          const crossing = sliceWindow(new Date(start), new Date(end), sliceMs).find(
            (slice) => cell(slice.start.getTime(), gridMs) !== cell(slice.end.getTime() - 1, gridMs),
          );
          expect(crossing).toBeUndefined();
        },
      ),
    );
  });

  it("a slice that does not fit crosses the grid: the rule refuses no slice it need not", () => {
    fc.assert(
      fc.property(duration, fc.constantFrom(HOUR, DAY), (sliceMs, gridMs) => {
        // Around the first unit boundary: one slice across it unless a slice ends there.
        const slices = sliceWindow(new Date(gridMs - 1), new Date(gridMs + 1), sliceMs);
        const crossing = slices.some(
          (slice) => cell(slice.start.getTime(), gridMs) !== cell(slice.end.getTime() - 1, gridMs),
        );
        expect(crossing).toBe(!fitsGrid(sliceMs, gridMs));
      }),
    );
  });
});

function pipelineText(slice: string, path: string): string {
  return `name: grid
service: { embedded: true }
source:
  kind: jobs
  application: atr
  app_type: [ec2]
  domain: ["*"]
  window: { start: "2026-03-10T00:00:00Z", end: "2026-03-11T00:00:00Z", slice: ${slice} }
  strategy: pit
sinks:
  - format: ndjson
    to: ./out
    path: "${path}"
`;
}

function load(slice: string, path: string): Pipeline | string {
  try {
    return parsePipeline(pipelineText(slice, path), "grid.yaml", {
      env: {},
      components: defaultComponents(),
    });
  } catch (error) {
    if (isConfigError(error)) return error.message;
    throw error;
  }
}

describe("slices and the paths' time placeholders", () => {
  const hourly = "dt={date}/hour={hour}/{slice}-{seq}.ndjson";
  const daily = "dt={date}/{slice}-{seq}.ndjson";

  it("refuses a fixed slice that does not divide {hour} (7m, 90m, 1d), at the slice, with the sizes allowed", () => {
    const column = (pipelineText("7m", hourly).split("\n")[7] ?? "").indexOf("7m") + 1;
    expect(load("7m", hourly)).toContain(
      `grid.yaml:8:${column}: source.window.slice: slice 7m does not divide {hour} (sinks[0].path:`,
    );
    expect(load("7m", hourly)).toContain("use 1m, 2m, 3m, 4m, 5m, 6m, 10m, 12m, 15m, 20m, 30m or 1h");
    expect(load("90m", hourly)).toContain("slice 90m does not divide {hour}");
    expect(load("1d", hourly)).toContain("slice 1d does not divide {hour}");
  });

  it("refuses a slice longer than a day or not dividing it with {date}, and takes those that divide it", () => {
    expect(load("2d", daily)).toContain("slice 2d does not divide {date}");
    expect(load("7h", daily)).toContain("slice 7h does not divide {date}");
    expect(load("90m", daily)).toMatchObject({
      source: { window: { slice_ms: 90 * 60_000, partition_ms: DAY } },
    });
    expect(load("15m", hourly)).toMatchObject({ source: { window: { partition_ms: HOUR } } });
    const free = load("1w", "{slice}-{seq}.ndjson");
    expect(typeof free === "string" ? free : free.source.window.partition_ms).toBeUndefined();
  });
});

describe("a v1 source and the paths' time placeholders", () => {
  const v1 = (path: string): string => `name: grid-v1
service: { embedded: true }
source:
  kind: logs
  api: v1
  application: atr
  app_type: ec2
  domain: [bravo.example]
  window: { start: now-3h/h }
  strategy: scroll
sinks:
  - format: ndjson
    to: ./out
    path: "${path}"
`;
  const load = (path: string): string => {
    try {
      return (
        parsePipeline(v1(path), "v1.yaml", { env: {}, components: defaultComponents() }).sinks[0]?.path ?? ""
      );
    } catch (error) {
      if (isConfigError(error)) return error.message;
      throw error;
    }
  };

  it("refuses {date} and {hour}: its one slice is the whole window", () => {
    expect(load("dt={date}/{slice}-{seq}.ndjson")).toContain(
      "v1.yaml:14:11: sinks[0].path: {date} names a file after its slice's start, but a v1 source reads its whole window as one slice",
    );
    expect(load("hour={hour}/{slice}-{seq}.ndjson")).toContain("{hour} names a file after its slice's start");
    expect(load("{slice}-{seq}.ndjson")).toBe("{slice}-{seq}.ndjson");
  });
});
