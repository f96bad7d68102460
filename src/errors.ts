// The error family of mdq-export: one base with a stable `code` (listed in error-codes.ts and
// docs/errors.md), subclassed by who must act. Callers match on the code with `hasCode`, never on the
// message or on class chains. Only cli/ turns errors into text.
import { ERROR_CATALOG } from "./error-codes.js";
import type { ErrorCode } from "./error-codes.js";

export { ERROR_CODES } from "./error-codes.js";
export type { ErrorCode } from "./error-codes.js";

export interface EtlErrorOptions {
  cause?: unknown;
}

/** Base of every error the product raises on purpose. */
export class EtlError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options: EtlErrorOptions = {}) {
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

  constructor(message: string, issues: readonly ConfigIssue[] = [], options: EtlErrorOptions = {}) {
    super("CONFIG_INVALID", message, options);
    this.issues = issues;
  }
}

/** A request that breaks the service's rules, caught before it is sent. */
export class RequestValidationError extends EtlError {
  readonly field: string;

  constructor(operation: string, field: string, message: string) {
    super("REQUEST_INVALID", `${operation}: ${field}: ${message}`);
    this.field = field;
  }
}

export interface ApiErrorDetails {
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
  constructor(operation: string, options: EtlErrorOptions = {}) {
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

  constructor(
    message: string,
    remaining: number | undefined,
    reserve: number,
    options: EtlErrorOptions = {},
  ) {
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
    if (cause instanceof RetriesSpentError) return true;
  }
  return false;
}

/** A scroll or point-in-time context is gone; the caller restarts its slice from the start. */
export class PagingContextLostError extends ApiError {
  constructor(operation: string, options: EtlErrorOptions & { status?: number } = {}) {
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

/** Writing output failed: disk, S3, or a format encoder. */
export class SinkError extends EtlError {
  constructor(message: string, options: EtlErrorOptions & { code?: ErrorCode } = {}) {
    super(options.code ?? "SINK_FAILED", message, options);
  }
}

/** The counts the service reported and the records written disagree. */
export class ReconciliationError extends EtlError {
  constructor(message: string, options: EtlErrorOptions = {}) {
    super("RECONCILIATION_FAILED", message, options);
  }
}

/** The run was stopped (signal); it can be resumed. */
export class StoppedError extends EtlError {
  constructor(
    message: string,
    options: EtlErrorOptions & {
      code?: "STOPPED" | "OUTPUT_CLOSED" | "OUTPUT_FULL" | "OUTPUT_LOCKED" | "OUTPUT_LOCK_LOST";
    } = {},
  ) {
    super(options.code ?? "STOPPED", message, options);
  }
}

/** The stable code of an error the product raised, or undefined for anything else. */
export function errorCode(error: unknown): ErrorCode | undefined {
  return error instanceof EtlError && error.code in ERROR_CATALOG ? error.code : undefined;
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
  constructor(message: string, options: EtlErrorOptions = {}) {
    super(message, { ...options, code: "OUTPUT_LOCKED" });
  }
}
