// The error codes: docs/errors.md is current (that every raised code is listed, the ErrorCode type
// checks), and the CLI matches on codes (exit code, cause chain without repeats).
import { readFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { exitCodeOf, reportError } from "./cli/report-error.js";
import { ERRORS_DOC_PATH, errorsDocument } from "./error-codes.js";
import { ConfigError, EtlError, hasCode, QuotaExhaustedError, SinkError } from "./errors.js";

const root = new URL("../", import.meta.url);

function capture(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString("utf8");
      callback();
    },
  });
  return { stream, text: () => text };
}

describe("error codes", () => {
  it(`${ERRORS_DOC_PATH} is current (regenerate with npm run schema)`, async () => {
    const committed = await readFile(new URL(ERRORS_DOC_PATH, root), "utf8");
    expect(committed).toBe(errorsDocument());
  });

  it("maps codes to exit codes: invalid 2, resumable 75, anything else 1", () => {
    expect(exitCodeOf(new ConfigError("bad"))).toBe(2);
    expect(exitCodeOf(new QuotaExhaustedError("spent", 0, 10))).toBe(75);
    expect(exitCodeOf(new EtlError("SLICE_GAVE_UP", "gave up"))).toBe(75);
    expect(exitCodeOf(new SinkError("disk full"))).toBe(1);
    expect(exitCodeOf(new Error("a bug"))).toBe(1);
  });

  it("matches on the code, whatever the class", () => {
    expect(hasCode(new SinkError("x", { code: "S3_ACCESS_DENIED" }), "S3_ACCESS_DENIED")).toBe(true);
    expect(hasCode(new SinkError("x"), "S3_ACCESS_DENIED", "SINK_FAILED")).toBe(true);
    expect(hasCode(new Error("x"), "SINK_FAILED")).toBe(false);
  });

  it("prints a cause chain with each message once (regression: wrappers repeated their cause)", () => {
    const disk = new Error("ENOSPC: no space left on device");
    const sink = new SinkError(`writing part-0.parquet failed: ${disk.message}`, { cause: disk });
    const slice = new EtlError("SLICE_FAILED", `slice 2026-01-01T00 failed: ${sink.message}`, {
      cause: sink,
    });
    const out = capture();
    expect(reportError(slice, out.stream, true)).toBe(1);
    const text = out.text();
    expect(text.split("ENOSPC").length - 1).toBe(1);
    expect(text).toContain("EtlError [SLICE_FAILED]: slice 2026-01-01T00 failed\n");
    expect(text).toContain("caused by: SinkError [SINK_FAILED]: writing part-0.parquet failed\n");
    expect(text).toContain("caused by: Error: ENOSPC: no space left on device");
  });
});
