// Runs an end-to-end test's pipeline: its YAML through the CLI's `run` against the test's emulator.
import { join } from "node:path";
import { expect } from "vitest";
import { REMOTE_SERVICE_YAML, runCli } from "./cli-harness.js";
import type { TestService, Workspace } from "./cli-harness.js";

/** What a run left: the folder its sinks wrote under, and what it printed on stderr. */
export interface PipelineRun {
  out: string;
  stderr: string;
}

/**
 * Writes the pipeline `e2e-<name>`, the service from the environment followed by `body` (given the
 * folder `out` under the workspace, named `name`, for its sinks), and runs it to exit code 0.
 */
export async function runPipeline(
  service: TestService,
  workspace: Workspace,
  name: string,
  body: (out: string) => string,
): Promise<PipelineRun> {
  const out = join(workspace.dir, name);
  const file = await workspace.write(
    `${name}.yaml`,
    `name: e2e-${name}\n${REMOTE_SERVICE_YAML}\n${body(out)}`,
  );
  const result = await runCli(["run", file, "--log-level", "warn"], { env: service.env });
  expect(result.code, result.stderr).toBe(0);
  return { out, stderr: result.stderr };
}
