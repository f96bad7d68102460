// After faulty runs through the CLI at debug level (batch downloads with signed URLs, revoked tokens,
// every fault), no client secret, access token or URL signature appears in stderr, stdout, the
// manifest, the state or any other file the run wrote.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { SERVICE_FROM_ENV, listTree, runCli, writePipeline } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

const SECRET = "client-secret-that-must-not-leak-7f3a";

const it = useEmulator(
  {
    seed: 21,
    density: 15,
    clientSecret: SECRET,
    batchReadyAfterPolls: 0,
    failingPartitions: [1],
    batchPartitionSeconds: 1800,
    faults: {
      errorRate: 0.08,
      rateLimitRate: 0.05,
      retryAfterSeconds: 0,
      resetRate: 0.05,
      truncateRate: 0.05,
      contextLossRate: 0.05,
      tokenRevocationRate: 0.2,
    },
  },
  { preset: false },
);

it("keeps secrets out of logs, errors, the manifest and the state", async ({ service, workspace }) => {
  const { dir } = workspace;
  const outputs: string[] = [];
  for (const [name, source] of [
    ["logs-batch", { kind: "logs", app_type: ["ec2"], strategy: "batch" }],
    // Workload batches whose second partition fails: an error path with tokens and links about.
    ["workloads-batch", { kind: "workloads", app_type: ["ec2"], strategy: "batch" }],
    ["jobs-pit", { kind: "jobs", app_type: ["ec2", "kubernetes"], strategy: "pit" }],
  ] as const) {
    const out = join(dir, name);
    const file = await writePipeline(
      dir,
      {
        name,
        service: SERVICE_FROM_ENV,
        source: {
          application: "atr",
          domain: ["*"],
          ...source,
          window: { start: "2026-11-20T00:00:00Z", end: "2026-11-20T02:00:00Z", slice: "1h" },
          page_size: 20,
        },
        sinks: [{ format: "ndjson", to: out }],
      },
      `${name}.yaml`,
    );
    const result = await runCli(["run", file, "--log-level", "debug", "--debug"], {
      env: service.env,
    });
    outputs.push(result.stderr, result.stdout);
    for (const path of await listTree(out)) outputs.push(await readFile(join(out, path), "utf8"));
  }
  const text = outputs.join("\n");
  expect(text.length).toBeGreaterThan(10_000);
  expect(text).toMatch(/"level":"debug"/);
  expect(text).toMatch(/_manifest|"fingerprint"/);
  expect(text).not.toContain(SECRET);
  // Access tokens are JWTs; batch download links are signed.
  expect(text).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/);
  expect(text).not.toMatch(/signature=[\w-]{16,}/);
  expect(text).not.toMatch(/Bearer\s+[\w-]{16,}/);
});
