// `plan`'s estimate of the run's time against the real time of the run that follows, on an emulator
// whose latency sets the pace (150 ms a request, a few dozen requests): the requests it plans times
// the latency it measured on its own requests, two slices at once. Before, plan assumed 25,000
// records/s and said a fraction of a second for a run of seconds.
import { join } from "node:path";
import { expect } from "vitest";
import { runCli } from "./support/cli-harness.js";
import { jobsPipelineYaml } from "./support/jobs-pipeline.js";
import { useEmulator } from "./support/use-emulator.js";

const LATENCY_MS = 150;

const it = useEmulator({ faults: { latencyMs: LATENCY_MS } });

interface PlanJson {
  estimated_requests: number;
  estimated_seconds: number;
  measured_latency_ms: number;
  expected_records: number;
}

it("estimates a latency-bound run within a factor of 1.5 of its real time", async ({
  service,
  workspace,
}) => {
  const out = join(workspace.dir, "latency-bound");
  // Eight hourly slices of jobs in pages of 10: about five pages a slice, two slices at once.
  const text = jobsPipelineYaml({ name: "latency-bound", out, endHour: 8, concurrency: 2 }).replace(
    "page_size: 50",
    "page_size: 10",
  );
  const file = await workspace.write("latency-bound.yaml", text);

  // The emulator makes a window's records on first use, which a real service has long indexed: a first
  // plan warms it, so that the plan measured sees the service the run will see.
  expect((await runCli(["plan", file], { env: service.env })).code).toBe(0);
  const planned = await runCli(["plan", file, "--json"], { env: service.env });
  expect(planned.code, planned.stderr).toBe(0);
  const plan = JSON.parse(planned.stdout) as PlanJson;
  expect(plan.estimated_requests).toBeGreaterThanOrEqual(24);
  expect(plan.measured_latency_ms).toBeGreaterThanOrEqual(LATENCY_MS);

  const queriesBefore = service.emulator.requestCount("/v3/jobs/query");
  const started = performance.now();
  const ran = await runCli(["run", file], { env: service.env });
  const seconds = (performance.now() - started) / 1000;
  expect(ran.code, ran.stderr).toBe(0);
  // The queries the plan counted are the queries the run sent.
  expect(service.emulator.requestCount("/v3/jobs/query") - queriesBefore).toBe(plan.estimated_requests);

  const ratio = plan.estimated_seconds / seconds;
  expect(ratio, `plan said ${plan.estimated_seconds} s, the run took ${seconds} s`).toBeGreaterThan(1 / 1.5);
  expect(ratio, `plan said ${plan.estimated_seconds} s, the run took ${seconds} s`).toBeLessThan(1.5);
  // What a fixed 25,000 records/s would have said: far off on a latency-bound run.
  expect(plan.expected_records / 25_000 / seconds).toBeLessThan(1 / 1.5);
});
