// A test hook, documented in docs/operations.md: MDQ_TEST_PAUSE_AT=<step>[#<n>] stops the process
// (SIGSTOP) the n-th time it reaches the named step of a commit, after saying so on stderr, so a test
// can kill -9 it at exactly that step. Unset (always, outside tests), a step costs one comparison.
import { writeSync } from "node:fs";

/** The steps of a commit, in order; docs/operations.md ("Commit protocol") describes each. */
export type CommitStep =
  "commit-staged" | "commit-intent" | "commit-rename" | "commit-renamed" | "state-entry" | "state-compacted";

const setting = /^([a-z-]+)(?:#(\d+))?$/.exec(process.env["MDQ_TEST_PAUSE_AT"] ?? "");
const pauseStep = setting?.[1];
let remaining = Number(setting?.[2] ?? 1);

export function reachedCommitStep(step: CommitStep): void {
  if (step !== pauseStep || --remaining !== 0) return;
  writeSync(2, `mdq-export test hook: paused at ${step}\n`);
  process.kill(process.pid, "SIGSTOP");
}
