// Lock records as other runs write them: one alive on this host (this test process), with a lease of
// an hour, as a run finds it when another one writes the same output; and the fields that place a
// holder in this process's PID namespace since this boot, read from /proc as the product does not.
import { spawnSync } from "node:child_process";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

/** The host, PID namespace and boot of this process, as a lock record names them. */
export function thisProcessSpace(): { host: string; pid_ns: string; boot_id: string } {
  return {
    host: hostname(),
    pid_ns: readlinkSync("/proc/self/ns/pid"),
    boot_id: readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim(),
  };
}

export function liveLockHolder(runId: string, pipeline: string): Record<string, unknown> {
  return {
    run_id: runId,
    pipeline,
    pid: process.pid,
    ...thisProcessSpace(),
    since: new Date().toISOString(),
    lease_until: new Date(Date.now() + 3_600_000).toISOString(),
    lease_ms: 3_600_000,
  };
}

/** A pid no process of this PID namespace has any more: a child that has already exited. */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}
