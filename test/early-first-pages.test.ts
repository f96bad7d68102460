// A run asks for its first slices' first point-in-time pages while the service's mappings are on their
// way, so one round trip less stands before the first hit; each slice's identical first request takes
// its answer. Against the emulator over real HTTP, with a latency that keeps the mappings on their way
// long enough to see it: the first pages are asked for before the mappings answer (as many as the
// places limits.concurrency leaves beside the mappings request), and a run spends
// exactly the requests of a run that asks for nothing early, on a fresh output and on one whose first
// slices an earlier run committed.
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { expect } from "vitest";
import { parsePipeline } from "../src/config/load-pipeline.js";
import { defaultComponents } from "../src/components/environment.js";
import type { Components } from "../src/components/environment.js";
import { NO_OBSERVER } from "../src/core/run-observer.js";
import { createSilentLogger } from "../src/logger.js";
import { runPipeline } from "../src/pipeline/run/run-pipeline.js";
import { listDataFiles, readNdjson } from "./support/read-output.js";
import { EMULATOR_NOW } from "./support/cli-harness.js";
import { jobsPipelineYaml } from "./support/jobs-pipeline.js";
import { useEmulator } from "./support/use-emulator.js";
import type { EmulatorFixtures } from "./support/use-emulator.js";

/** Long enough that the run's own steps before its first pages (stores, lock, state) fit inside it. */
const LATENCY_MS = 700;
const QUERY = "/v3/jobs/query";

const it = useEmulator({ faults: { latencyMs: LATENCY_MS } });

/** The built-in components with jobs asking for nothing early: the runs to compare with. */
function withoutEarlyPages(): Components {
  const components = defaultComponents();
  const { firstPage: _ignored, ...jobs } = components.kinds.jobs;
  return { ...components, kinds: { ...components.kinds, jobs } };
}

interface Exported {
  /** Queries the emulator received during the run. */
  queries: number;
  /** Queries it had received when the mappings were answered. */
  queriesBeforeMappings: number;
  status: string;
}

async function exportJobs(
  { service, workspace }: EmulatorFixtures,
  out: string,
  endHour: number,
  components: Components,
): Promise<Exported> {
  const { emulator } = service;
  const text = jobsPipelineYaml({
    name: "early-pages",
    out: join(workspace.dir, out),
    endHour,
    concurrency: 3,
  });
  const file = await workspace.write(`${out}.yaml`, text);
  const pipeline = parsePipeline(text, file, {
    components: defaultComponents(),
    env: service.env,
    now: new Date(EMULATOR_NOW),
  });
  const before = emulator.requestCount(QUERY);
  let queriesBeforeMappings = -1;
  const outcome = await runPipeline(pipeline, {
    log: createSilentLogger(),
    signal: new AbortController().signal,
    stdout: new PassThrough(),
    pipelineFile: file,
    components,
    observer: {
      ...NO_OBSERVER,
      requestSent: (operation) => {
        if (operation === "/v3/jobs/mappings") queriesBeforeMappings = emulator.requestCount(QUERY) - before;
      },
    },
  });
  return { queries: emulator.requestCount(QUERY) - before, queriesBeforeMappings, status: outcome.status };
}

it("asks for the first slices' first pages before the mappings answer, and for nothing more", async ({
  service,
  workspace,
}) => {
  const fixtures = { service, workspace };
  const early = await exportJobs(fixtures, "early", 5, defaultComponents());
  const plain = await exportJobs(fixtures, "plain", 5, withoutEarlyPages());
  expect(early.status).toBe("complete");
  expect(plain.status).toBe("complete");
  // Three slices at once, and three requests waiting for an answer at once (limits.concurrency bounds
  // every operation): the mappings request holds one place, two first pages went out with it, and
  // the third as soon as the mappings answered.
  expect(early.queriesBeforeMappings).toBe(2);
  expect(plain.queriesBeforeMappings).toBe(0);
  expect(plain.queries).toBeGreaterThan(5);
  expect(early.queries).toBe(plain.queries);
  const records = async (out: string): Promise<string[]> => {
    const dir = join(fixtures.workspace.dir, out);
    return (await readNdjson(dir, await listDataFiles(dir))).map((row) => String(row._id)).sort();
  };
  expect(await records("early")).toEqual(await records("plain"));
});

it("asks for no slice an earlier run committed", async ({ service, workspace }) => {
  const fixtures = { service, workspace };
  // The first two hours committed first; then the window of five hours.
  for (const [out, components] of [
    ["resumed-early", defaultComponents()],
    ["resumed-plain", withoutEarlyPages()],
  ] as const) {
    const first = await exportJobs(fixtures, out, 2, components);
    expect(first.status).toBe("complete");
  }
  const early = await exportJobs(fixtures, "resumed-early", 5, defaultComponents());
  const plain = await exportJobs(fixtures, "resumed-plain", 5, withoutEarlyPages());
  expect(early.status).toBe("complete");
  expect(early.queriesBeforeMappings).toBe(2);
  expect(early.queries).toBe(plain.queries);
});
