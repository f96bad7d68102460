// The test fixture of the suites that run the CLI against an emulator: `service` (the emulator and the
// environment a CLI run needs to reach it) and `workspace` (a temporary folder for pipelines and their
// output), each set up once per test file, on first use, and closed or removed after its last test.
import { test } from "vitest";
import type { EmulatorOptions } from "../../src/emulator/server.js";
import { createWorkspace, EXPORT_EMULATOR, startTestService } from "./cli-harness.js";
import type { TestService, Workspace } from "./cli-harness.js";

export interface EmulatorFixtures {
  service: TestService;
  workspace: Workspace;
}

/**
 * A `test` (use it as `it`) whose tests receive `service` and `workspace`; the emulator runs with
 * `EXPORT_EMULATOR` under `options`. A test that uses them names them in a destructuring (Vitest
 * starts only the fixtures a test names).
 * @example
 * const it = useEmulator({ density: 3 });
 * it("exports", async ({ service, workspace }) => { await runCli(["run", file], { env: service.env }); });
 */
export function useEmulator(options: EmulatorOptions = {}) {
  return test.extend<EmulatorFixtures>({
    service: [
      // Vitest reads a fixture's dependencies from its first parameter, which must be a destructuring.
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        const service = await startTestService({ ...EXPORT_EMULATOR, ...options });
        try {
          await use(service);
        } finally {
          await service.close();
        }
      },
      { scope: "file" },
    ],
    workspace: [
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        const workspace = await createWorkspace();
        try {
          await use(workspace);
        } finally {
          await workspace.remove();
        }
      },
      { scope: "file" },
    ],
  });
}
