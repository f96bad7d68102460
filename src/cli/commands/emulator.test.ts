// The emulator command: flags become options, bad values are named, and it serves until the signal aborts.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { request } from "undici";
import { parseEmulatorArgs, runEmulatorCommand } from "./emulator.js";
import { defaultComponents } from "../../components/environment.js";

function collect(stream: PassThrough): () => string {
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

describe("emulator command", () => {
  it("maps flags to options", () => {
    expect(
      parseEmulatorArgs([
        "--port",
        "0",
        "--seed",
        "7",
        "--density",
        "120",
        "--error-rate",
        "0.1",
        "--failing-partitions",
        "1,3",
      ]),
    ).toEqual({
      port: 0,
      seed: 7,
      density: 120,
      failingPartitions: [1, 3],
      faults: { errorRate: 0.1 },
    });
    expect(() => parseEmulatorArgs(["--error-rate", "2"])).toThrow(/--error-rate: "2"/);
    expect(() => parseEmulatorArgs(["--partition-format", "csv"])).toThrow(/ndjson, ndjson-gzip, json-array/);
  });

  it("maps the data-change flags to field changes and late records", () => {
    expect(
      parseEmulatorArgs([
        "--add-field",
        "jobs:job.priority:integer",
        "--remove-field",
        "jobs:workflow.id",
        "--retype-field",
        "logs:response.status_code:keyword",
        "--late-records",
        "jobs:2026-11-20T10:00:00Z/2026-11-20T11:00:00Z:25",
        "--control",
        "--port",
        "0",
      ]),
    ).toEqual({
      port: 0,
      faults: {},
      fieldChanges: {
        jobs: { add: { "job.priority": "integer" }, remove: ["workflow.id"], retype: {} },
        logs: { add: {}, remove: [], retype: { "response.status_code": "keyword" } },
      },
      lateRecords: [{ kind: "jobs", start: "2026-11-20T10:00:00Z", end: "2026-11-20T11:00:00Z", count: 25 }],
      control: true,
    });
    expect(() => parseEmulatorArgs(["--add-field", "jobs:x:int"])).toThrow(
      '--add-field: "jobs:x:int" does not end with a type (keyword, text, date, float, boolean, long, integer, alias)',
    );
    expect(() => parseEmulatorArgs(["--remove-field", "job:x"])).toThrow(/does not start with a kind/);
    // The kinds come from the emulator's table of kind data: billing's summary has no fields to change.
    expect(() => parseEmulatorArgs(["--remove-field", "billing:x"])).toThrow(
      '--remove-field: "billing:x" does not start with a kind (logs, workloads, jobs, tickets, metrics)',
    );
    expect(() => parseEmulatorArgs(["--late-records", "jobs:2026-11-20T10:00:00Z/x:2"])).toThrow(
      '--late-records: "jobs:2026-11-20T10:00:00Z/x:2": late records: end "x" is not a time',
    );
  });

  it("maps --lost-records and --indexed-until", () => {
    expect(
      parseEmulatorArgs([
        "--lost-records",
        "jobs:2026-11-20T10:00:00Z/2026-11-20T11:00:00Z:5",
        "--indexed-until",
        "2026-11-20T10:43:57Z",
      ]),
    ).toMatchObject({
      lostRecords: [{ kind: "jobs", start: "2026-11-20T10:00:00Z", end: "2026-11-20T11:00:00Z", count: 5 }],
      indexedUntil: "2026-11-20T10:43:57Z",
    });
    expect(() =>
      parseEmulatorArgs(["--lost-records", "job:2026-11-20T10:00:00Z/2026-11-20T11:00:00Z:5"]),
    ).toThrow(/--lost-records: .* does not start with a kind/);
    expect(() => parseEmulatorArgs(["--indexed-until", "soon"])).toThrow(
      '--indexed-until: "soon" is not a time',
    );
  });

  it("prints its URL and credentials, serves tokens, and stops when the signal aborts", async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const output = collect(stdout);
    const controller = new AbortController();
    const io = {
      stdout,
      stderr,
      env: {},
      signal: controller.signal,
      isTTY: false,
      components: defaultComponents(),
    };
    const done = runEmulatorCommand(["--port", "0"], io);
    while (!output().includes("Stop with")) await new Promise((resolve) => setImmediate(resolve));
    const url = /listening on (\S+)/.exec(output())?.[1] ?? "";
    expect(output()).toContain("client_id: mdq-demo");
    const response = await request(`${url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=mdq-demo&client_secret=mdq-demo-secret",
    });
    expect(response.statusCode).toBe(200);
    await response.body.dump();
    controller.abort();
    expect(await done).toBe(0);
  });

  it("prints help", async () => {
    const stdout = new PassThrough();
    const output = collect(stdout);
    const io = {
      stdout,
      stderr: new PassThrough(),
      env: {},
      signal: new AbortController().signal,
      isTTY: false,
      components: defaultComponents(),
    };
    expect(await runEmulatorCommand(["--help"], io)).toBe(0);
    expect(output()).toContain("--rate-limit-rate");
  });
});
