import { describe, expect, it } from "vitest";
import { latestSaneLease, readLockRecord, showLockValue } from "./lock-record.js";

const valid = {
  run_id: "nightly-20261123T020000Z-3f2a1b",
  pipeline: "nightly",
  pid: 4711,
  host: "worker-2",
  since: "2026-11-23T02:00:01.000Z",
  lease_until: "2026-11-23T02:02:01.000Z",
};

describe("a lock file read back", () => {
  it("gives the record of a lock this version or an earlier one wrote", () => {
    expect(readLockRecord(JSON.stringify(valid))).toEqual({ record: valid });
    expect(readLockRecord(JSON.stringify({ ...valid, lease_ms: 1500 }))).toEqual({
      record: { ...valid, lease_ms: 1500 },
    });
  });

  it("keeps the holder's PID namespace and boot as text, and drops them when they are anything else", () => {
    const placed = { ...valid, pid_ns: "pid:[4026531836]", boot_id: "0b8ff622-ffce-438e-9ac6-53d0a99d2d13" };
    expect(readLockRecord(JSON.stringify(placed))).toEqual({ record: placed });
    expect(readLockRecord(JSON.stringify({ ...valid, pid_ns: 4026531836, boot_id: null }))).toEqual({
      record: valid,
    });
  });

  it("names the field and the value that make it unusable", () => {
    const problems: [string, string][] = [
      ["{ half", 'it is not JSON (it starts "{ half")'],
      ["[1]", "it is not a JSON object"],
      [JSON.stringify({ ...valid, lease_until: "soon" }), 'its lease_until "soon" is not a date and time'],
      [JSON.stringify({ ...valid, lease_until: 5 }), "its lease_until is 5, not a string"],
      [JSON.stringify({ ...valid, host: undefined }), "its host is undefined, not a string"],
      [JSON.stringify({ ...valid, pid: "4711" }), "its pid is 4711, not a process id"],
      [JSON.stringify({ ...valid, pid: -1 }), "its pid is -1, not a process id"],
      [
        JSON.stringify({ ...valid, lease_ms: 1.5 }),
        "its lease_ms is 1.5, not a whole number of milliseconds",
      ],
    ];
    for (const [body, problem] of problems) expect(readLockRecord(body)).toEqual({ problem });
  });

  it("escapes control characters and NUL, and cuts long values", () => {
    expect(showLockValue("r\u0000\u001b[2K\r\nx")).toBe(String.raw`r\u0000\u001b[2K\r\nx`);
    expect(showLockValue("x".repeat(500))).toBe(`${"x".repeat(120)}…`);
    expect(readLockRecord("\u001b[2Kforged")).toEqual({
      problem: String.raw`it is not JSON (it starts "\u001b[2Kforged")`,
    });
  });

  it("bounds a lease by three periods of the longer of this run's and the holder's lease", () => {
    const now = Date.parse("2026-11-23T02:00:00Z");
    const record = { ...valid, lease_ms: 3_600_000 };
    expect(latestSaneLease(valid, 120_000, now)).toBe(now + 360_000);
    expect(latestSaneLease(record, 120_000, now)).toBe(now + 10_800_000);
  });
});
