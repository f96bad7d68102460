// The error codes: docs/errors.md is current (that every raised code is listed, the ErrorCode type
// checks), and the CLI matches on codes (exit code, cause chain without repeats).
import { readFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { exitCodeOf, reportError } from "./cli/report-error.js";
import { ERROR_CATALOG, ERRORS_DOC_PATH, errorsDocument } from "./error-codes.js";
import { INPUT_ERRORS } from "./core/error-codes/input-errors.js";
import { LOCK_ERRORS } from "./core/error-codes/lock-errors.js";
import { OUTPUT_STATE_ERRORS } from "./core/error-codes/output-state-errors.js";
import { RESPONSE_ERRORS } from "./core/error-codes/response-errors.js";
import { RUN_ERRORS } from "./core/error-codes/run-errors.js";
import { S3_ERRORS } from "./core/error-codes/s3-errors.js";
import { SERVICE_ERRORS } from "./core/error-codes/service-errors.js";
import { SINK_ERRORS } from "./core/error-codes/sink-errors.js";
import { QUOTA_LEDGER_ERRORS } from "./core/error-codes/quota-ledger-errors.js";
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

  it("lists each code in one area only (a code in two areas would keep the later one silently)", () => {
    const areas = [
      INPUT_ERRORS,
      RESPONSE_ERRORS,
      LOCK_ERRORS,
      SERVICE_ERRORS,
      QUOTA_LEDGER_ERRORS,
      SINK_ERRORS,
      S3_ERRORS,
      OUTPUT_STATE_ERRORS,
      RUN_ERRORS,
    ];
    const listed = areas.flatMap((area) => Object.keys(area));
    expect(new Set(listed).size).toBe(listed.length);
    expect(Object.keys(ERROR_CATALOG)).toEqual(listed);
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
