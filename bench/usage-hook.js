// Preloaded with `node --import ./bench/usage-hook.js ...` by the benchmark: when the process exits, it
// writes its own resource usage (getrusage of the whole process, all threads) to the file named by
// MDQ_BENCH_USAGE_FILE. Peak RSS is the kernel's high-water mark, so nothing is missed between polls.
import { writeFileSync } from "node:fs";
import process from "node:process";
import { isMainThread } from "node:worker_threads";

// Worker threads inherit the preload; only the main thread, which exits last, reports.
const file = process.env.MDQ_BENCH_USAGE_FILE;
if (isMainThread && file !== undefined && file !== "") {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        userSeconds: usage.userCPUTime / 1e6,
        systemSeconds: usage.systemCPUTime / 1e6,
        maxRssKb: usage.maxRSS,
      }),
    );
  });
}
