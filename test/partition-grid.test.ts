// A row never sits in a partition its own time contradicts. `{date}` and `{hour}` name a file after its
// slice's start. Regression: `slice: 7m` (and 90m, and 1d) was accepted with `hour={hour}`, so the slice
// 00:58–01:05 was written under hour=00; `slice: auto` cut 24h slices under an `{hour}` path. Now a
// fixed slice must divide the path's smallest unit (refused before any request otherwise), and auto
// slices never cross it.
import { join } from "node:path";
import { describe, expect } from "vitest";
import { emulatorEnv, REMOTE_SERVICE_YAML, runCli } from "./support/cli-harness.js";
import type { TestService } from "./support/cli-harness.js";
import { positionOf } from "./support/pipeline-text.js";
import { listAllFiles, listDataFiles, readNdjson } from "./support/read-output.js";
import { EXPORT_EMULATOR } from "./support/cli-harness.js";
import { serviceFixture, useEmulator } from "./support/use-emulator.js";

const it = useEmulator().extend<{ untouchedService: TestService }>({
  /** What every refused pipeline points at; it must never see a request. */
  untouchedService: serviceFixture(EXPORT_EMULATOR),
});

const HOURLY = "dt={date}/hour={hour}/part-{slice}-{seq}.ndjson";
const DAILY = "dt={date}/part-{slice}-{seq}.ndjson";

function pipeline(slice: string, path: string, out: string): string {
  return `name: partition-grid
${REMOTE_SERVICE_YAML}
source:
  kind: jobs
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "2026-03-10T00:00:00Z", end: "2026-03-11T00:00:00Z", slice: ${slice} }
  strategy: pit
  fields: [job.id, "@timestamp"]
sinks:
  - format: ndjson
    to: ${out}
    path: "${path}"
`;
}

const REFUSED = [
  { slice: "7m", path: HOURLY, says: "slice 7m does not divide {hour}" },
  { slice: "90m", path: HOURLY, says: "slice 90m does not divide {hour}" },
  { slice: "1d", path: HOURLY, says: "slice 1d does not divide {hour}" },
  { slice: "2d", path: DAILY, says: "slice 2d does not divide {date}" },
];

describe("slices and the partition grid of the path", () => {
  for (const refused of REFUSED) {
    it(`slice ${refused.slice} with ${refused.path.split("/part")[0]}: validate, plan and run exit 2 at the slice, nothing requested, nothing written`, async ({
      workspace,
      untouchedService,
    }) => {
      const { emulator } = untouchedService;
      const dir = await workspace.folder(`refused-${refused.slice}`);
      const yaml = pipeline(refused.slice, refused.path, join(dir, "out"));
      const file = await workspace.write(`refused-${refused.slice}.yaml`, yaml);
      const { line, column } = positionOf(yaml, `slice: ${refused.slice}`);
      const before = await listAllFiles(workspace.dir);
      for (const command of ["validate", "plan", "run"]) {
        const result = await runCli([command, file], { env: emulatorEnv(emulator) });
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(
          `${file}:${line}:${column + "slice: ".length}: source.window.slice: ${refused.says}`,
        );
      }
      expect(emulator.requestCount()).toBe(0);
      expect(await listAllFiles(workspace.dir)).toEqual(before);
    });
  }

  it("names the sizes allowed for {hour}", async ({ workspace }) => {
    const file = await workspace.write("sizes.yaml", pipeline("7m", HOURLY, "./out"));
    const result = await runCli(["validate", file], { env: {} });
    expect(result.stderr).toContain("use 1m, 2m, 3m, 4m, 5m, 6m, 10m, 12m, 15m, 20m, 30m or 1h");
  });

  it("slice 90m with daily partitions divides the day: every row sits under its own date", async ({
    service,
    workspace,
  }) => {
    const out = join(await workspace.folder("daily-90m"), "out");
    const file = await workspace.write("daily-90m.yaml", pipeline("90m", DAILY, out));
    const result = await runCli(["run", file], { env: service.env });
    expect(result.code, result.stderr).toBe(0);
    await expectRowsInTheirOwnPartition(out);
  });

  it("slice auto with hourly partitions is cut on the hour: every row sits under its own hour", async ({
    service,
    workspace,
  }) => {
    const out = join(await workspace.folder("hourly-auto"), "out");
    const file = await workspace.write("hourly-auto.yaml", pipeline("auto", HOURLY, out));
    const plan = await runCli(["plan", file, "--json"], { env: service.env });
    expect(plan.code, plan.stderr).toBe(0);
    const slices = (JSON.parse(plan.stdout) as { slices: { start: string; end: string }[] }).slices;
    expect(slices).toHaveLength(24);
    for (const slice of slices) expect(Date.parse(slice.end) - Date.parse(slice.start)).toBe(3_600_000);
    const result = await runCli(["run", file], { env: service.env });
    expect(result.code, result.stderr).toBe(0);
    await expectRowsInTheirOwnPartition(out);
  });
});

/** Every row's `@timestamp` agrees with the `dt=` (and `hour=`) directories it was written under. */
async function expectRowsInTheirOwnPartition(out: string): Promise<void> {
  const files = await listDataFiles(out);
  expect(files.length).toBeGreaterThan(0);
  let rows = 0;
  for (const file of files) {
    const date = /dt=([0-9-]+)/.exec(file)?.[1];
    const hour = /hour=([0-9]+)/.exec(file)?.[1];
    for (const row of await readNdjson(out, [file])) {
      const time = new Date(String(row["@timestamp"])).toISOString();
      expect(time.slice(0, 10), file).toBe(date);
      if (hour !== undefined) expect(time.slice(11, 13), file).toBe(hour);
      rows++;
    }
  }
  expect(rows).toBeGreaterThan(0);
}
