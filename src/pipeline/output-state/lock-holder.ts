// Whether a lock's pid says anything about its holder. A pid is a number in one PID namespace since one
// boot: two containers with the host's network, two hostNetwork pods on one node, or two machines of
// one hostname share a host name, not their pids. So a holder is judged dead by its pid only when its
// record provably comes from this process's PID namespace since this boot; otherwise its lease decides.
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import type { LockRecord } from "./lock-record.js";

/** Where this process's pids mean something: the host, its PID namespace and the boot (Linux). */
export interface ProcessSpace {
  host: string;
  /** `readlink /proc/self/ns/pid`, e.g. `pid:[4026531836]`; undefined where it cannot be read. */
  pidNamespace: string | undefined;
  /** `/proc/sys/kernel/random/boot_id`; undefined where it cannot be read. */
  bootId: string | undefined;
}

function readOrUndefined(read: () => string): string | undefined {
  try {
    const text = read().trim();
    return text === "" ? undefined : text;
  } catch {
    // Not Linux, or /proc not mounted: the pid of a holder then never decides.
    return undefined;
  }
}

let ours: Omit<ProcessSpace, "host"> | undefined;

/** This process's space, read once (the namespace and the boot do not change while it runs). */
export function thisProcessSpace(): ProcessSpace {
  ours ??= {
    pidNamespace: readOrUndefined(() => readlinkSync("/proc/self/ns/pid")),
    bootId: readOrUndefined(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8")),
  };
  return { host: hostname(), ...ours };
}

/**
 * Whether the record's pid is a pid of this process's space: same host, PID namespace and boot, each
 * known on both sides. A record of an earlier version (no namespace, no boot) never is.
 */
export function sharesProcessSpace(record: LockRecord, space: ProcessSpace): boolean {
  return (
    record.host === space.host &&
    space.pidNamespace !== undefined &&
    record.pid_ns === space.pidNamespace &&
    space.bootId !== undefined &&
    record.boot_id === space.bootId
  );
}

/** Whether a process of this PID namespace is still running. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
