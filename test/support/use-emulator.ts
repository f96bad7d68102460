// The test fixture of the suites that run the CLI against an emulator: `service` (the emulator and the
// environment a CLI run needs to reach it) and `workspace` (a temporary folder for pipelines and their
// output), each set up once per test file, on first use, and closed or removed after its last test.
import { test } from "vitest";
import type { EmulatorOptions, RunningEmulator } from "../../src/emulator/server.js";
import { fetchToken } from "../emulator-http.js";
import { createWorkspace, expectedRows, EXPORT_EMULATOR, startTestService } from "./cli-harness.js";
import type { Row, TestService, Workspace } from "./cli-harness.js";
import { startGateProxy } from "./gate-proxy.js";
import type { GateProxy } from "./gate-proxy.js";
import { startS3Server } from "./s3-server.js";
import type { TestS3Server } from "./s3-server.js";

export interface EmulatorFixtures {
  service: TestService;
  workspace: Workspace;
}

export interface EmulatorPreset {
  /**
   * Whether `options` are spread over `EXPORT_EMULATOR` (the default). `false` starts the emulator
   * with its own defaults and the real clock, for suites whose windows and timings are relative to now.
   */
  preset?: boolean;
}

/**
 * A file-scoped fixture that starts an emulator with exactly `options` on first use and closes it
 * after the file's last test; for a suite's second emulator:
 * `useEmulator().extend<{ other: TestService }>({ other: serviceFixture({ ...EXPORT_EMULATOR, seed: 2 }) })`.
 */
export function serviceFixture(
  options: EmulatorOptions,
): [(context: object, use: (service: TestService) => Promise<void>) => Promise<void>, { scope: "file" }] {
  return [
    // Vitest reads a fixture's dependencies from its first parameter, which must be a destructuring.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use: (service: TestService) => Promise<void>) => {
      const service = await startTestService(options);
      try {
        await use(service);
      } finally {
        await service.close();
      }
    },
    { scope: "file" },
  ];
}

/**
 * A `test` (use it as `it`) whose tests receive `service` and `workspace`; the emulator runs with
 * `EXPORT_EMULATOR` under `options` (or `options` alone with `{ preset: false }`). A test that uses
 * them names them in a destructuring (Vitest starts only the fixtures a test names). Call it once per
 * file: Vitest keeps a file-scoped fixture by its name, so a second `useEmulator` in the same file
 * would get the first one's emulator; a second emulator is a `serviceFixture` under another name.
 * @example
 * const it = useEmulator({ density: 3 });
 * it("exports", async ({ service, workspace }) => { await runCli(["run", file], { env: service.env }); });
 */
export function useEmulator(options: EmulatorOptions = {}, { preset = true }: EmulatorPreset = {}) {
  return test.extend<EmulatorFixtures>({
    service: serviceFixture(preset ? { ...EXPORT_EMULATOR, ...options } : options),
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

/**
 * An automatic per-test fixture that puts the emulator's `kind` fields back as generated before each
 * test, for suites whose tests change them between two runs:
 * `useEmulator().extend<{ generatedFields: void }>({ generatedFields: fieldsAsGenerated("jobs") })`.
 */
export function fieldsAsGenerated(
  kind: Parameters<RunningEmulator["changeFields"]>[0],
): [
  (context: { service: TestService }, use: (value: void) => Promise<void>) => Promise<void>,
  { auto: true },
] {
  return [
    async ({ service }, use) => {
      service.emulator.changeFields(kind, {});
      await use();
    },
    { auto: true },
  ];
}

/**
 * A file-scoped fixture that starts the S3 test server on first use and stops it after the file's
 * last test: `useEmulator().extend<{ s3: TestS3Server }>({ s3: s3ServerFixture() })`.
 */
export function s3ServerFixture(): [
  (context: object, use: (s3: TestS3Server) => Promise<void>) => Promise<void>,
  { scope: "file" },
] {
  return [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const s3 = await startS3Server();
      try {
        await use(s3);
      } finally {
        await s3.stop();
      }
    },
    { scope: "file" },
  ];
}

/**
 * A file-scoped fixture holding the records the emulator serves for `target` and `bodies`, keyed by
 * `_id` (see `expectedRows`), computed once on first use.
 */
export function expectedRowsFixture(
  target: Parameters<typeof expectedRows>[1],
  bodies: Parameters<typeof expectedRows>[2],
): [
  (context: { service: TestService }, use: (rows: Map<string, Row>) => Promise<void>) => Promise<void>,
  { scope: "file" },
] {
  return [
    async ({ service }, use) => {
      await use(await expectedRows(service.emulator, target, bodies));
    },
    { scope: "file" },
  ];
}

/**
 * `useEmulator(options, { preset: false })` whose tests also receive `expected`: the jobs the emulator
 * serves for one v3 query, keyed by `_id`, for suites that compare a run's output with them exactly.
 */
export function useJobsEmulator(options: EmulatorOptions, query: Parameters<typeof expectedRows>[2][number]) {
  return useEmulator(options, { preset: false }).extend<{ expected: Map<string, Row> }>({
    expected: expectedRowsFixture("/v3/jobs/query", [query]),
  });
}

/**
 * A file-scoped fixture: a gate proxy in front of the file's emulator (see `startGateProxy`), closed
 * after the file's last test: `useEmulator().extend<{ proxy: GateProxy }>({ proxy: gateProxyFixture() })`.
 */
export function gateProxyFixture(): [
  (context: { service: TestService }, use: (proxy: GateProxy) => Promise<void>) => Promise<void>,
  { scope: "file" },
] {
  return [
    async ({ service }, use) => {
      const proxy = await startGateProxy(service.emulator.url);
      try {
        await use(proxy);
      } finally {
        await proxy.close();
      }
    },
    { scope: "file" },
  ];
}

/** A file-scoped fixture: an access token of the file's emulator, for suites that call it over HTTP. */
export function tokenFixture(): [
  (context: { service: TestService }, use: (token: string) => Promise<void>) => Promise<void>,
  { scope: "file" },
] {
  return [
    async ({ service }, use) => {
      await use(await fetchToken(service.emulator));
    },
    { scope: "file" },
  ];
}
