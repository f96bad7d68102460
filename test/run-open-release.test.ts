// A run that fails while opening, after it took the output lock, releases what it took: the lock of
// every sink's output is gone, and the next run of the same process is not stopped by it (a lock
// left behind by this live process would stop it with exit 75).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { REMOTE_SERVICE_YAML, runCli } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ density: 5 });

const LOCK = "_mdq-export/lock.json";

function pipelineYaml(first: string, second: string, transforms: string): string {
  return `name: open-release
${REMOTE_SERVICE_YAML}
source:
  kind: jobs
  application: atr
  app_type: [ec2]
  domain: ["*"]
  strategy: pit
  window: { start: "2026-11-20T00:00:00Z", end: "2026-11-20T02:00:00Z", slice: 1h }
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
