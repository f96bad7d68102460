// The guards callers use instead of class checks: each recognises its class by code (or by the data
// only that class carries) and tells apart the errors that share a code.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { HttpStatusError, isHttpStatusError } from "./api/http-status-error.js";
import {
  ApiError,
  ConfigError,
  configErrorAt,
  errorMessage,
  EtlError,
  isApiError,
  isConfigError,
  isEtlError,
  isRetriesSpent,
  isSinkError,
  isStopped,
  QuotaExhaustedError,
  RetriesSpentError,
  SinkError,
  StoppedError,
} from "./errors.js";

describe("error guards", () => {
  const status503 = new HttpStatusError("/v3/jobs/query", 503, "busy", { retryable: true });
  const spent = new RetriesSpentError(status503, 3, 1200);

  it("recognise an API error by its retry verdict, whatever its code", () => {
    expect(isApiError(status503)).toBe(true);
    expect(isApiError(spent)).toBe(true);
    expect(isApiError(new ApiError("x", { operation: "/x", retryable: false }, "NETWORK_ERROR"))).toBe(true);
    // QUOTA_EXHAUSTED is resumable but not the service's verdict on one request.
    expect(isApiError(new QuotaExhaustedError("spent", 0, 10))).toBe(false);
    expect(isApiError(new EtlError("SLICE_FAILED", "x"))).toBe(false);
    expect(isApiError(Object.assign(new Error("x"), { retryable: true }))).toBe(false);
  });

  it("tell an HTTP status from a spent retry budget that kept its code", () => {
    expect(spent.code).toBe("HTTP_STATUS");
    expect(isHttpStatusError(status503)).toBe(true);
    expect(isHttpStatusError(spent)).toBe(false);
    expect(isRetriesSpent(spent)).toBe(true);
    expect(isRetriesSpent(status503)).toBe(false);
    expect(
      isHttpStatusError(new ApiError("x", { operation: "/x", retryable: false }, "PAYLOAD_TOO_LARGE")),
    ).toBe(false);
  });

  it("recognise output, stop and configuration errors by code", () => {
    expect(isSinkError(new SinkError("x", { code: "S3_ACCESS_DENIED" }))).toBe(true);
    expect(isSinkError(new SinkError("x", { code: "OUTPUT_FULL" }))).toBe(true);
    expect(isSinkError(new EtlError("SCHEMA_DRIFT", "x"))).toBe(false);
    expect(isStopped(new StoppedError("x", { code: "OUTPUT_CLOSED" }))).toBe(true);
    expect(isStopped(new EtlError("SLICE_GAVE_UP", "x"))).toBe(false);
    expect(isConfigError(new ConfigError("x", [{ path: "sinks", message: "m" }]))).toBe(true);
    expect(isConfigError(new Error("CONFIG_INVALID"))).toBe(false);
    expect(isEtlError(new Error("a bug"))).toBe(false);
  });
});

describe("error text", () => {
  it("reads an error's message, and any other thrown value as text", () => {
    expect(errorMessage(new StoppedError("stopped by a signal"))).toBe("stopped by a signal");
    expect(errorMessage("a thrown string")).toBe("a thrown string");
    expect(errorMessage(42)).toBe("42");
    expect(errorMessage(undefined)).toBe("undefined");
  });

  it("makes a setting's ConfigError whose one issue says what the error says", () => {
    const error = configErrorAt("--shard", '--shard "x" is not i/n');
    expect(isConfigError(error)).toBe(true);
    expect(error.message).toBe('--shard "x" is not i/n');
    expect(error.issues).toEqual([{ path: "--shard", message: '--shard "x" is not i/n' }]);
  });
});

describe("the lint rule on error classes", () => {
  const lint = async (code: string, filePath: string): Promise<string[]> => {
    const [result] = await new ESLint().lintText(code, { filePath });
    return (result?.messages ?? []).map((message) => message.ruleId ?? "");
  };

  it("refuses instanceof on the product's error classes in src, and allows the built-in Error", async () => {
    const bad =
      'import { ApiError } from "./errors.js";\nexport const f = (e: unknown): boolean => e instanceof ApiError;\n';
    expect(await lint(bad, "src/api/example.ts")).toContain("no-restricted-syntax");
    const builtIn = "export const f = (e: unknown): boolean => e instanceof Error;\n";
    expect(await lint(builtIn, "src/api/example.ts")).not.toContain("no-restricted-syntax");
  });
});
