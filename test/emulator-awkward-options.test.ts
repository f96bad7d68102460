// How awkward data is asked for: the emulator command's `--awkward[=PARTS]` and the embedded service's
// `service.awkward` in a pipeline (validated with line and column like every option); and the dates
// written with no zone, which mean UTC.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEmulatorArgs } from "../src/cli/commands/emulator.js";
import { parsePipeline } from "../src/config/load-pipeline.js";
import { ConfigError } from "../src/errors.js";
import { AWKWARD_PARTS, resolveAwkward } from "../src/emulator/awkward-data.js";
import { startEmulator } from "../src/emulator/server.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import { makeTempDir, readNdjsonRecords, removeDir, runCli } from "./support/cli-harness.js";
import { defaultComponents } from "../src/components/environment.js";

const started: RunningEmulator[] = [];
afterAll(async () => {
  for (const emulator of started) await emulator.close();
});

const NOW = new Date("2026-03-12T00:00:00Z");

function embedded(awkward: string, out = "./out"): string {
  return `name: awkward
service:
  embedded: true
  awkward: ${awkward}
source:
  kind: jobs
  application: atr
  app_type: ec2
  domain: ["*"]
  window: { start: "2026-03-11T10:00:00Z", end: "2026-03-11T11:00:00Z", slice: 1h }
sinks:
  - { format: ndjson, to: "${out}" }
`;
}

function refusal(text: string): ConfigError {
  try {
    parsePipeline(text, "awkward.yaml", { components: defaultComponents(), env: {}, now: NOW });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected the pipeline to be refused");
}

describe("asking for awkward data", () => {
  it("--awkward serves every part, --awkward=PARTS those named, and an unknown part is named", () => {
    expect(parseEmulatorArgs(["--awkward"])).toMatchObject({ awkward: resolveAwkward(true) });
    expect(parseEmulatorArgs(["--awkward=int64,dates", "--port", "0"])).toMatchObject({
      port: 0,
      awkward: { int64: true, dates: true, unicode: false, hitKeys: false },
    });
    expect(parseEmulatorArgs(["--port", "0"])).not.toHaveProperty("awkward");
    expect(() => parseEmulatorArgs(["--awkward=int64,int65"])).toThrow(
      /--awkward: "int65" is not one of all/,
    );
  });

  it("the pipeline's part names are the emulator's", () => {
    const every = `[${AWKWARD_PARTS.join(", ")}]`;
    expect(
      parsePipeline(embedded(every), "awkward.yaml", { components: defaultComponents(), env: {}, now: NOW })
        .service,
    ).toMatchObject({ mode: "embedded", awkward: [...AWKWARD_PARTS] });
  });

  it("service.awkward takes true or a list of parts; an unknown part is refused at its line and column", () => {
    expect(
      parsePipeline(embedded("[int64, dates]"), "awkward.yaml", {
        components: defaultComponents(),
        env: {},
        now: NOW,
      }).service,
    ).toMatchObject({ mode: "embedded", awkward: ["int64", "dates"] });
    expect(
      parsePipeline(embedded("true"), "awkward.yaml", { components: defaultComponents(), env: {}, now: NOW })
        .service,
    ).toMatchObject({
      awkward: true,
    });
    const error = refusal(embedded("[int64, int65]"));
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ path: "service.awkward[1]", line: 4, column: 20 });
    expect(error.message).toContain("awkward.yaml:4:20");
    expect(error.message).toContain("hitKeys");
  });

  it("service.awkward applies only to the embedded service", () => {
    const remote = embedded("true").replace(
      "  embedded: true\n",
      "  base_url: https://mdq.example.com\n  auth_url: https://auth.example.com\n  client_id: x\n  client_secret: y\n",
    );
    const error = refusal(remote);
    expect(error.message).toMatch(/awkward applies only with embedded: true/);
  });

  it("a run on the embedded service with service.awkward exports the awkward fields", async () => {
    const dir = await makeTempDir("awkward-embedded");
    try {
      const file = join(dir, "pipeline.yaml");
      await writeFile(file, embedded("[int64, dates]", join(dir, "out")));
      const run = await runCli(["run", file, "--now", NOW.toISOString()]);
      expect(run.code, run.stderr).toBe(0);
      const rows = await readNdjsonRecords(join(dir, "out"));
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => typeof row["odd"] === "object")).toBe(true);
      expect(rows.some((row) => (row["odd"] as Record<string, unknown>)["when"] !== undefined)).toBe(true);
    } finally {
      await removeDir(dir);
    }
  });

  it("dates written with no zone are the record's UTC time to the second", async () => {
    const emulator = await startEmulator({ seed: 5, density: 40, awkward: { dates: true } });
    started.push(emulator);
    const body = {
      application: "atr",
      app_type: ["ec2"],
      domain: ["*"],
      start_time: "2026-03-11T00:00:00Z",
      end_time: "2026-03-11T06:00:00Z",
    };
    let zoneless = 0;
    for await (const hit of emulator.expectedHits("jobs", body)) {
      const when = (hit._source["odd"] as Record<string, unknown> | undefined)?.["when"];
      if (typeof when !== "string" || !/T\d\d:\d\d:\d\d$/.test(when)) continue;
      zoneless++;
      const instant = Date.parse(String(hit._source["@timestamp"]));
      expect(Date.parse(`${when}Z`)).toBe(Math.floor(instant / 1000) * 1000);
    }
    expect(zoneless).toBeGreaterThan(5);
  });
});
