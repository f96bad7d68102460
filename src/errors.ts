// The error family of mdq-export: one base with a stable `code` (listed in error-codes.ts and
// docs/errors.md), subclassed by who must act. Callers match on the code with `hasCode`, never on the
// message or on class chains (lint refuses `instanceof` on these classes): where a caller needs a
// class's data, a guard below recognises it by its codes, or by the verdict it carries (`isApiError`).
// Only cli/ turns errors into text.
import { ERROR_CATALOG } from "./error-codes.js";
import type { ErrorCode } from "./error-codes.js";

export { ERROR_CODES } from "./error-codes.js";
export type { ErrorCode } from "./error-codes.js";

/** Base of every error the product raises on purpose. */
export class EtlError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }
}

/** One problem in a pipeline definition, with where it is. */
export interface ConfigIssue {
  /** Dotted path in the pipeline, e.g. `source.window.start`. */
  path: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

/** The user must edit the pipeline (or the command line). Nothing has been requested. Exit code 2. */
export class ConfigError extends EtlError {
  readonly issues: readonly ConfigIssue[];

  constructor(message: string, issues: readonly ConfigIssue[] = [], options: ErrorOptions = {}) {
    super("CONFIG_INVALID", message, options);
    this.issues = issues;
  }
}

/** A `ConfigError` about one setting, whose message is the issue's. */
export function configErrorAt(path: string, message: string): ConfigError {
  return new ConfigError(message, [{ path, message }]);
}

/** A request that breaks the service's rules, caught before it is sent. */
export class RequestValidationError extends EtlError {
  constructor(operation: string, field: string, message: string) {
    super("REQUEST_INVALID", `${operation}: ${field}: ${message}`);
  }
}

interface ApiErrorDetails {
  /** The operation path, such as `/v3/jobs/query`; never a URL with a signature. */
  operation: string;
  status?: number;
  retryable: boolean;
  cause?: unknown;
}

/** The service (or the network on the way to it) failed a request. */
export class ApiError extends EtlError {
  readonly operation: string;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(message: string, details: ApiErrorDetails, code: ErrorCode = "API_ERROR") {
    super(code, message, { cause: details.cause });
    this.operation = details.operation;
    this.status = details.status;
    this.retryable = details.retryable;
  }
}

/** The credentials are wrong (token request refused) or a fresh token is still refused. */
export class AuthError extends ApiError {
  constructor(message: string, details: Omit<ApiErrorDetails, "retryable">) {
    super(message, { ...details, retryable: false }, "AUTH_FAILED");
  }
}

/** 403: the token is valid but lacks permission for the operation. */
export class PermissionError extends ApiError {
  constructor(operation: string, options: ErrorOptions = {}) {
    super(
      `the client is not permitted to call ${operation} (HTTP 403); ask for the permission or drop this operation`,
      { operation, status: 403, retryable: false, cause: options.cause },
      "PERMISSION_DENIED",
    );
  }
}

/** The day's quota is gone (429) or the configured reserve is reached. The run stops and resumes later. */
export class QuotaExhaustedError extends EtlError {
  readonly remaining: number | undefined;
  readonly reserve: number;

  constructor(message: string, remaining: number | undefined, reserve: number, options: ErrorOptions = {}) {
    super("QUOTA_EXHAUSTED", message, options);
    this.remaining = remaining;
    this.reserve = reserve;
  }
}

/**
 * An operation failed with retryable errors until its retry budget (attempts or time) was spent. The
 * service may answer later, so the run stops resumable (exit 75); nothing inside the run starts the
 * operation again, so a slice's restarts never multiply the operation's attempts. The code is the last
 * failure's, and so is the message, with the attempts and the time spent.
 */
export class RetriesSpentError extends ApiError {
  readonly attempts: number;

  constructor(last: ApiError, attempts: number, elapsedMs: number) {
    super(
      `${last.message} (gave up after ${attempts} attempt${attempts === 1 ? "" : "s"} in ${(elapsedMs / 1000).toFixed(1)} s)`,
      { operation: last.operation, status: last.status, retryable: true, cause: last },
      last.code,
    );
    this.attempts = attempts;
  }
}

/** Whether `error`, or an error it wraps, ended because an operation spent its retry budget. */
export function spentRetryBudget(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth++) {
    if (isRetriesSpent(cause)) return true;
  }
  return false;
}

/** A `RetriesSpentError`: an API error that counts the attempts it spent. */
export function isRetriesSpent(error: unknown): error is RetriesSpentError {
  return isApiError(error) && typeof (error as { attempts?: unknown }).attempts === "number";
}

/** A scroll or point-in-time context is gone; the caller restarts its slice from the start. */
export class PagingContextLostError extends ApiError {
  constructor(operation: string, options: ErrorOptions & { status?: number } = {}) {
    super(
      `the paging context of ${operation} was lost (expired or released by the service); the slice must restart`,
      { operation, status: options.status, retryable: true, cause: options.cause },
      "PAGING_CONTEXT_LOST",
    );
  }
}

/** A batch export could not be brought to completion (failed partitions, expired token, deadline). */
export class BatchExportError extends ApiError {
  constructor(message: string, details: Omit<ApiErrorDetails, "retryable"> & { retryable?: boolean }) {
    super(message, { retryable: false, ...details }, "BATCH_EXPORT_FAILED");
  }
}

/** The codes a `SinkError` carries: the output's own (`SINK_…`, `S3_…`) and a full output. */
export type SinkCode = Extract<ErrorCode, `SINK_${string}` | `S3_${string}`> | "OUTPUT_FULL";

/** Writing output failed: disk, S3, or a format encoder. */
export class SinkError extends EtlError {
  constructor(message: string, options: ErrorOptions & { code?: SinkCode } = {}) {
    super(options.code ?? "SINK_FAILED", message, options);
  }
}

/** The counts the service reported and the records written disagree. */
export class ReconciliationError extends EtlError {
  constructor(message: string, options: ErrorOptions = {}) {
    super("RECONCILIATION_FAILED", message, options);
  }
}

/** The codes a `StoppedError` carries: the run stopped and can be resumed. */
const STOP_CODES = [
  "STOPPED",
  "OUTPUT_CLOSED",
  "OUTPUT_FULL",
  "OUTPUT_LOCKED",
  "OUTPUT_LOCK_LOST",
] as const satisfies readonly ErrorCode[];

/** The run was stopped (signal); it can be resumed. */
export class StoppedError extends EtlError {
  constructor(message: string, options: ErrorOptions & { code?: (typeof STOP_CODES)[number] } = {}) {
    super(options.code ?? "STOPPED", message, options);
  }
}

/** What an error says: its message, or the thrown value as text when it is not an `Error`. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The stable code of an error the product raised, or undefined for anything else. */
export function errorCode(error: unknown): ErrorCode | undefined {
  // The one class check of the family: every guard below starts from it.
  // eslint-disable-next-line no-restricted-syntax
  return error instanceof EtlError && error.code in ERROR_CATALOG ? error.code : undefined;
}

/** An error the product raised on purpose (it carries a listed code), as opposed to a defect. */
export function isEtlError(error: unknown): error is EtlError {
  return errorCode(error) !== undefined;
}

/**
 * An error of the service or the way to it: its codes are many (and a spent retry budget keeps the
 * last one's), so it is recognised by the verdict only it carries, whether the service may answer
 * next time.
 * @example if (isApiError(error) && error.retryable) return EXIT.resumable;
 */
export function isApiError(error: unknown): error is ApiError {
  return isEtlError(error) && typeof (error as { retryable?: unknown }).retryable === "boolean";
}

/** A `ConfigError`, with the issues it lists. */
export function isConfigError(error: unknown): error is ConfigError {
  return hasCode(error, "CONFIG_INVALID") && Array.isArray((error as { issues?: unknown }).issues);
}

/** A `SinkError`, an output error already described; `OUTPUT_FULL` is also a stop (`isStopped`). */
export function isSinkError(error: unknown): error is SinkError {
  const code = errorCode(error);
  return code !== undefined && (/^(SINK|S3)_/.test(code) || code === "OUTPUT_FULL");
}

/** A `StoppedError`: the run stopped and can be resumed. */
export function isStopped(error: unknown): error is StoppedError {
  return hasCode(error, ...STOP_CODES);
}

/**
 * Whether `error` carries one of `codes`.
 * @example if (hasCode(error, ERROR_CODES.QUOTA_EXHAUSTED)) stopForToday();
 */
export function hasCode(error: unknown, ...codes: readonly ErrorCode[]): boolean {
  const code = errorCode(error);
  return code !== undefined && codes.includes(code);
}

/** Another run holds the output's lock; this one stopped before touching it and can run later. */
export class OutputLockedError extends StoppedError {
  constructor(message: string, options: ErrorOptions = {}) {
    super(message, { ...options, code: "OUTPUT_LOCKED" });
  }
}
