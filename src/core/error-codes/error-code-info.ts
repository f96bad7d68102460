// What the table of error codes says of each code; each area of the product lists its own codes.

/** How an error ends a command: 2 invalid (nothing was requested), 75 resumable, 1 failed. */
export type ErrorExit = "invalid" | "resumable" | "failed";

export interface ErrorCodeInfo {
  exit: ErrorExit;
  /** What happened, in one sentence. */
  meaning: string;
  /** What the user does about it. */
  action: string;
}
