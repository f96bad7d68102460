// Worker threads for the CPU-heavy work a run can hand off (Parquet row groups): one pool per run,
// sized from the cores the process may use, so other cores encode while the main thread pages.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Tinypool } from "tinypool";

/**
 * Runs one task in a worker thread and resolves with what the worker's function returned;
 * the buffers in `transfer` move to the worker (unusable here afterwards) instead of being copied.
 */
export type WorkerRun<Task, Result> = (task: Task, transfer?: ArrayBuffer[]) => Promise<Result>;

export interface WorkerPool {
  readonly threads: number;
  /**
   * A runner for the function `name` of the compiled module `worker`, or undefined when there is no
   * such module (the code runs from its TypeScript sources, as under the test runner): the caller
   * works in-thread.
   */
  runner<Task, Result>(worker: URL, name: string): WorkerRun<Task, Result> | undefined;
  /** Ends the threads; tasks still running reject, and their results are not wanted. */
  close(): Promise<void>;
}

/**
 * `limits.encode_threads: auto`: one thread per core the process may use beyond two
 * (`os.availableParallelism()` follows `taskset` and the container's CPU set), and no more than the
 * slices that run at once. Two cores are left to the main thread and to what serves it (GC, zlib,
 * the network): on two cores a worker gave about a fifth more records/s for 16–18% more CPU per
 * record and 110 MB more (docs/performance.md), a trade for the user to choose, not a default.
 */
export function autoWorkerThreads(concurrency: number, cores = availableParallelism()): number {
  return Math.max(0, Math.min(cores - 2, concurrency));
}

/**
 * Threads start at the first task, not before, so a pipeline that never needs them pays nothing, and
 * stay until `close()`; idle, they do not keep the process alive.
 * @example
 * const pool = createWorkerPool(2);
 * const encode = pool.runner<LinesTask, EncodedRowGroup>(new URL("./worker.js", import.meta.url), "encode");
 */
export function createWorkerPool(threads: number): WorkerPool {
  let pool: Tinypool | undefined;
  const compiled = new Map<string, boolean>();
  return {
    threads,
    runner<Task, Result>(worker: URL, name: string): WorkerRun<Task, Result> | undefined {
      if (threads === 0) return undefined;
      let exists = compiled.get(worker.href);
      if (exists === undefined) {
        exists = existsSync(fileURLToPath(worker));
        compiled.set(worker.href, exists);
      }
      if (!exists) return undefined;
      return async (task, transfer) => {
        pool ??= new Tinypool({ minThreads: threads, maxThreads: threads });
        return (await pool.run(task, { filename: worker.href, name, transferList: transfer })) as Result;
      };
    },
    async close() {
      const running = pool;
      pool = undefined;
      await running?.destroy();
    },
  };
}
