// A test hook, documented in docs/operations.md: MDQ_TEST_PAUSE_AT=<step>[#<n>] stops the process
// (SIGSTOP) the n-th time it reaches the named step of a commit, after saying so on stderr, so a test
// can kill -9 it at exactly that step. It exists only in the test build of the CLI (scripts/bundle.mjs
// sets MDQ_TEST_HOOKS): the shipped bundle and the compiled modules have no hook, so a stray variable
// cannot freeze a production run holding its lock. Without it, a step is a call of an empty function.
import { writeSync } from "node:fs";

/** The steps of a commit, in order; docs/operations.md ("Commit protocol") describes each. */
type CommitStep =
  "commit-staged" | "commit-intent" | "commit-rename" | "commit-renamed" | "state-entry" | "state-compacted";

/** Defined by the bundler: true in the test build only, false in the shipped one, absent unbundled. */
declare const MDQ_TEST_HOOKS: boolean | undefined;

/** Called at each step of a commit; pauses there only in the test build, when asked to. */
export const reachedCommitStep: (step: CommitStep) => void =
  typeof MDQ_TEST_HOOKS !== "undefined" && MDQ_TEST_HOOKS ? pauseAtCommitStep() : () => undefined;

function pauseAtCommitStep(): (step: CommitStep) => void {
  const setting = /^([a-z-]+)(?:#(\d+))?$/.exec(process.env["MDQ_TEST_PAUSE_AT"] ?? "");
  const pauseStep = setting?.[1];
  let remaining = Number(setting?.[2] ?? 1);
  return (step) => {
    if (step !== pauseStep || --remaining !== 0) return;
    // Written before the stop, whatever stderr is: the test waits for this line.
    writeSync(2, `mdq-export test hook: paused at ${step}\n`);
    process.kill(process.pid, "SIGSTOP");
  };
}
