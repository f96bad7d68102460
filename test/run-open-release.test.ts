// A run that fails while opening, after it took the output lock, releases what it took: the lock of
// every sink's output is gone, and the next run of the same process is not stopped by it (a lock
// left behind by this live process would stop it with exit 75). A run that cannot have its output
// (locked by a live run, not writable, a lease setting refused) asks the service nothing at all.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { REMOTE_SERVICE_YAML, runCli, spawnCli } from "./support/cli-harness.js";
import type { Row } from "./support/cli-harness.js";
import { liveLockHolder } from "./support/lock-holder.js";
import { useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ density: 5 });

const LOCK = "_mdq-export/lock.json";

function pipelineYaml(
  first: string,
  second: string,
  transforms: string,
  { name = "open-release", end = "02:00" }: { name?: string; end?: string } = {},
): string {
  return `name: ${name}
${REMOTE_SERVICE_YAML}
source:
  kind: jobs
  application: atr
  app_type: [ec2]
  domain: ["*"]
  strategy: pit
  window: { start: "2026-11-20T00:00:00Z", end: "2026-11-20T${end}:00Z", slice: 1h }
transforms: ${transforms}
sinks:
  - format: ndjson
    to: ${first}
  - format: ndjson
    to: ${second}
`;
}

describe("a run whose opening fails", () => {
  it("releases the lock of every output when the state refuses the changed pipeline", async ({
    service,
    workspace,
  }) => {
    const first = join(workspace.dir, "first");
    const second = join(workspace.dir, "second");
    const original = await workspace.write("original.yaml", pipelineYaml(first, second, "[]"));
    const done = await runCli(["run", original], { env: service.env });
    expect(done.code, done.stderr).toBe(0);

    // Another transform changes the output's fingerprint: the state refuses it once the lock is taken.
    const changed = await workspace.write(
      "changed.yaml",
      pipelineYaml(first, second, "[{ add: { source_system: { value: mdq } } }]"),
    );
    const refused = await runCli(["run", changed], { env: service.env });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain("the pipeline changed since the output");
    expect(existsSync(join(first, LOCK))).toBe(false);
    expect(existsSync(join(second, LOCK))).toBe(false);

    const forced = await runCli(["run", changed, "--force"], { env: service.env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(existsSync(join(first, LOCK))).toBe(false);
  });
});

/** Log lines of a failed opening that say something kept talking to the service. */
function talkAfterFailure(logs: readonly Row[]): Row[] {
  return logs.filter((log) => log.level === "warn" || /destroyed|NETWORK_ERROR/.test(JSON.stringify(log)));
}

// Issue 29: a run that could not open its output had already asked for a token and the mappings, and
// retried the mappings on a closed client (warnings, seconds) before it ended.
describe("a run that cannot have its output", () => {
  it("ends 75 at once on an output a live run holds, having asked the service nothing", async ({
    service,
    workspace,
  }) => {
    const out = join(workspace.dir, "held");
    await mkdir(join(out, "_mdq-export"), { recursive: true });
    await writeFile(join(out, LOCK), JSON.stringify(liveLockHolder("r-live", "open-release")));
    const file = await workspace.write("held.yaml", pipelineYaml(out, join(workspace.dir, "held-2"), "[]"));
    const before = service.emulator.requestCount();
    const refused = await runCli(["run", file], { env: service.env });
    expect(refused.code, refused.stderr).toBe(75);
    expect(refused.stderr).toContain("locked by run r-live");
    expect(service.emulator.requestCount() - before).toBe(0);
    expect(talkAfterFailure(refused.logs)).toEqual([]);
  });

  it("ends on an output it cannot write before it asks for a token", async ({ service, workspace }) => {
    const blocker = await workspace.write("a-file", "not a folder");
    const file = await workspace.write(
      "unwritable.yaml",
      pipelineYaml(join(blocker, "out"), join(workspace.dir, "writable"), "[]"),
    );
    const before = service.emulator.requestCount();
    const refused = await runCli(["run", file], { env: service.env });
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain("ENOTDIR");
    expect(service.emulator.requestCount() - before).toBe(0);
    expect(talkAfterFailure(refused.logs)).toEqual([]);
    expect(existsSync(join(workspace.dir, "writable", LOCK))).toBe(false);
  });

  it("ends 2 on a lease setting it refuses, having asked the service nothing", async ({
    service,
    workspace,
  }) => {
    const out = join(workspace.dir, "lease");
    const file = await workspace.write("lease.yaml", pipelineYaml(out, join(workspace.dir, "lease-2"), "[]"));
    const before = service.emulator.requestCount();
    const cli = spawnCli(["run", file], { ...service.env, MDQ_LOCK_LEASE_MS: "10" });
    expect(await cli.exited, cli.stderr()).toBe(2);
    expect(cli.stderr()).toContain(
      'MDQ_LOCK_LEASE_MS must be a whole number of milliseconds from 1500 up, found "10"',
    );
    expect(service.emulator.requestCount() - before).toBe(0);
    expect(existsSync(out)).toBe(false);
  });
});

// Issue 29: a sink pinned to a schema file that is missing, or to a pin beside the output that is not
// JSON, was refused (exit 2) only after the token, the mappings and the plan's probes had been asked for.
describe("a run whose pinned schema cannot be read", () => {
  it("ends having asked the service nothing, from the pipeline's pin and from the output's", async ({
    service,
    workspace,
  }) => {
    const first = join(workspace.dir, "pinned-1");
    const second = join(workspace.dir, "pinned-2");
    const committed = await workspace.write(
      "pinned.yaml",
      pipelineYaml(first, second, "[]", { name: "pinned" }).replace(
        `    to: ${first}\n`,
        `    to: ${first}\n    schema: { pinned: nowhere.schema.json }\n`,
      ),
    );
    await mkdir(join(second, "_mdq-export"), { recursive: true });
    await writeFile(join(second, "_mdq-export", "schema.json"), "{ not json");
    const kept = await workspace.write(
      "kept.yaml",
      pipelineYaml(join(workspace.dir, "kept-1"), second, "[]"),
    );
    for (const { file, code, says } of [
      // The pipeline's own file is its definition (2); a broken file at the output is the output's (1).
      { file: committed, code: 2, says: '"nowhere.schema.json" cannot be read (ENOENT)' },
      { file: kept, code: 1, says: "_mdq-export/schema.json: not JSON" },
    ]) {
      const before = service.emulator.requestCount();
      const refused = await runCli(["run", file], { env: service.env });
      expect(refused.code, refused.stderr).toBe(code);
      expect(refused.stderr).toContain(says);
      expect(service.emulator.requestCount() - before, file).toBe(0);
      expect(talkAfterFailure(refused.logs)).toEqual([]);
      expect(existsSync(join(second, LOCK))).toBe(false);
    }
  });
});

// Issue 29: a changed pipeline and another pipeline's output were refused (exit 2) only once the state
// was opened, after the token, the mappings and the first pages had been asked for. What refuses them
// is the state and the manifests the output holds, read under the lock before the service is opened.
describe("a run its output's state refuses", () => {
  const ADD = "[{ add: { source_system: { value: mdq } } }]";

  it("ends 2 having asked the service nothing: a changed pipeline, and a --force over part of its output", async ({
    service,
    workspace,
  }) => {
    const first = join(workspace.dir, "refused-1");
    const second = join(workspace.dir, "refused-2");
    const original = await workspace.write("refused.yaml", pipelineYaml(first, second, "[]"));
    expect((await runCli(["run", original], { env: service.env })).code).toBe(0);
    const changed = await workspace.write("refused-changed.yaml", pipelineYaml(first, second, ADD));
    // The same change over the first hour only: a --force would leave the second hour's files beside.
    const partial = await workspace.write(
      "refused-part.yaml",
      pipelineYaml(first, second, ADD, { end: "01:00" }),
    );
    const refusals = [
      { argv: ["run", changed], says: "the pipeline changed since the output" },
      { argv: ["run", partial, "--force"], says: "lie outside the forced window" },
    ];
    for (const { argv, says } of refusals) {
      const before = service.emulator.requestCount();
      const refused = await runCli(argv, { env: service.env });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(says);
      expect(service.emulator.requestCount() - before, argv.join(" ")).toBe(0);
      expect(talkAfterFailure(refused.logs)).toEqual([]);
      expect(existsSync(join(first, LOCK))).toBe(false);
      expect(existsSync(join(second, LOCK))).toBe(false);
    }
  });

  it("ends 2 on another pipeline's output, --force included, having asked the service nothing", async ({
    service,
    workspace,
  }) => {
    const first = join(workspace.dir, "owned-1");
    const second = join(workspace.dir, "owned-2");
    const owner = await workspace.write("owner.yaml", pipelineYaml(first, second, "[]"));
    expect((await runCli(["run", owner], { env: service.env })).code).toBe(0);
    const other = await workspace.write("other.yaml", pipelineYaml(first, second, "[]", { name: "other" }));
    for (const argv of [
      ["run", other],
      ["run", other, "--force"],
    ]) {
      const before = service.emulator.requestCount();
      const refused = await runCli(argv, { env: service.env });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`the output in ${first} belongs to pipeline "open-release"`);
      expect(service.emulator.requestCount() - before, argv.join(" ")).toBe(0);
      expect(talkAfterFailure(refused.logs)).toEqual([]);
    }
  });
});
