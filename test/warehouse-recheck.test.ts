// Late data re-checked: after records arrive late in one hour, `run --recheck` spends one date
// histogram, exports that hour again (replacing its file) and nothing else, and the output then
// holds exactly the service's records. The manifest keeps the re-check.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import type { RunningEmulator } from "../src/emulator/server.js";
import { byId, checkCompleteExport, startTestEmulator } from "./support/export-checks.js";
import { collect, readManifest, readParquet } from "./support/read-output.js";
import { kubernetesJobsYaml } from "./support/jobs-pipeline.js";
import { createWorkspace, emulatorEnv, runCli } from "./support/cli-harness.js";
import type { Workspace } from "./support/cli-harness.js";

let emulator: RunningEmulator;
let workspace: Workspace;
beforeAll(async () => {
  emulator = await startTestEmulator({ density: 5 });
  workspace = await createWorkspace("mdq-recheck-");
});
afterAll(async () => {
  await emulator.close();
  await workspace.remove();
});

const WINDOW = { start: "2026-03-10T00:00:00Z", end: "2026-03-10T04:00:00Z" };
const scope = { application: "atr", app_type: ["kubernetes"], domain: ["*"] };

const yaml = (out: string): string =>
  kubernetesJobsYaml(
    "recheck",
    `  - format: parquet
    to: ${out}
    path: "dt={date}/hour={hour}/part-{slice}-{seq}.parquet"
`,
  );

/**
 * Service requests the emulator received while `action` ran, per path. Token requests are left out:
 * the test emulator's clock is fixed in the past, so the client finds every token expired and asks
 * for one per request.
 */
async function requestsDuring(action: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = emulator.requestCounts();
  await action();
  const after = emulator.requestCounts();
  return Object.fromEntries(
    Object.entries(after)
      .map(([path, count]) => [path, count - (before[path] ?? 0)] as const)
      .filter(([path, count]) => count > 0 && path !== "/oauth2/token"),
  );
}

describe("run --recheck", () => {
  it("re-exports exactly the hour that received late records, for one histogram more", async () => {
    const out = join(workspace.dir, "out");
    const file = await workspace.write("recheck.yaml", yaml(out));
    const env = emulatorEnv(emulator);
    const window = ["--start", WINDOW.start, "--end", WINDOW.end];
    expect((await runCli(["run", file, ...window], { env })).code).toBe(0);
    const first = await readManifest(out);

    emulator.addLateRecords({
      kind: "jobs",
      start: "2026-03-10T02:10:00Z",
      end: "2026-03-10T02:20:00Z",
      count: 2,
    });
    let result = { code: -1, stdout: "", stderr: "" };
    const recheck = await requestsDuring(async () => {
      result = await runCli(["run", file, ...window, "--recheck"], { env });
    });
    expect(result.code, result.stderr).toBe(0);
    const late = first.slices.find((slice) => slice.id === "20260310T020000Z");
    expect(result.stdout).toContain(
      `Re-checked committed slices: 1 changed and exported again: 20260310T020000Z: ${late?.read} → ${(late?.read ?? 0) + 6} (+6)`,
    );

    // The same hour exported on its own, into another directory: the requests a re-export needs.
    const alone = join(workspace.dir, "alone");
    const aloneFile = await workspace.write("alone.yaml", yaml(alone));
    const plain = await requestsDuring(() =>
      runCli(["run", aloneFile, "--start", "2026-03-10T02:00:00Z", "--end", "2026-03-10T03:00:00Z"], { env }),
    );
    expect(plain["/v3/jobs/aggs"]).toBeUndefined();
    expect(recheck).toEqual({ ...plain, "/v3/jobs/aggs": 1 });

    // Only the late hour's file changed; the output is now the service's data.
    const second = await readManifest(out);
    const unchanged = (m: typeof first) =>
      m.files.filter((f) => !f.slice.startsWith("20260310T02")).map((f) => f.sha256);
    expect(unchanged(second)).toEqual(unchanged(first));
    expect(second.files.find((f) => f.slice === "20260310T020000Z")?.rows).toBe((late?.read ?? 0) + 6);
    const hits = await collect(
      emulator.expectedHits("jobs", { ...scope, start_time: WINDOW.start, end_time: WINDOW.end }),
    );
    const { files } = await checkCompleteExport(out, hits.length);
    const table = await readParquet(out, files);
    expect([...byId(table.rows).keys()].sort()).toEqual(hits.map((hit) => hit._id).sort());
    expect(second.slices.find((slice) => slice.id === "20260310T020000Z")?.rechecks).toEqual([
      expect.objectContaining({ committed: late?.read, service: (late?.read ?? 0) + 6 }),
    ]);

    // Nothing changed since: the next re-check exports nothing.
    const quiet = await requestsDuring(async () => {
      result = await runCli(["run", file, ...window, "--recheck"], { env });
    });
    expect(result.stdout).toContain("Re-checked committed slices: none changed");
    expect(quiet["/v3/jobs/query"]).toBeUndefined();
    expect(quiet["/v3/jobs/aggs"]).toBe(1);
  });
});
