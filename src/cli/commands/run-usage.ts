// The help text of `mdq-export run`, kept apart so the command itself reads as parse, run, print, exit.
import { OBSERVABILITY_USAGE } from "../../observability/observability-settings.js";

export const RUN_USAGE = `Usage: mdq-export run PIPELINE.yaml [options]

Exports the pipeline's window. Committed slices of an earlier run are skipped (resume).

Options:
  --start TIME        replace the window's start (ISO 8601, date-math such as now-7d/d, or yesterday)
  --end TIME          replace the window's end
  --now TIME          decide the window and its open slices against this instant (ISO 8601 with
                      a zone), like a scheduler's logical date: a rerun of a missed schedule
                      exports what that schedule would have; at most 5 minutes ahead of the
                      clock; default: the moment the run starts
  --force             redo every slice of the window (--start/--end), even committed ones or after
                      the pipeline changed; slices committed outside the window are kept
  --recheck           re-count the committed slices with one date histogram and export again
                      those whose count rose (late data); a count that went down keeps the files
                      and warns (recheck.on_decrease: replace exports them again); with
                      recheck.last_days also the days before the window
  --break-lock        replace an output lock that cannot be read, or whose lease lies more than
                      three lease periods ahead of this host's clock (a holder with a wrong
                      clock); refuses a lock whose lease still runs. Use only when no run is
                      writing the output
  --shard I/N         run shard I of N (every N-th slice); see also --shard-count
  --shard-count N     the number of shards, with the index from JOB_COMPLETION_INDEX or
                      AWS_BATCH_JOB_ARRAY_INDEX (or MDQ_SHARD_COUNT)
  --log-level LEVEL   trace, debug, info, warn, error, silent (default: info; warn on a terminal;
                      MDQ_LOG_LEVEL)
  --progress-interval D
                      without a terminal, log a progress line (slices, records, rate, quota, ETA)
                      every D (10s, 30s, 5m); off or 0 for none; default limits.progress_interval
                      of the pipeline (30s)
${OBSERVABILITY_USAGE}
  --debug             print the cause chain of an error
  -h, --help          show this help

Exit codes: 0 done, 1 failed, 2 invalid pipeline or arguments, 75 stopped but resumable.`;
