// The lock record of another run that is alive on this host (this test process), with a lease of an
// hour: what a run finds when another one writes the same output.
import { hostname } from "node:os";

export function liveLockHolder(runId: string, pipeline: string): Record<string, unknown> {
  return {
    run_id: runId,
    pipeline,
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    lease_until: new Date(Date.now() + 3_600_000).toISOString(),
    lease_ms: 3_600_000,
  };
}
