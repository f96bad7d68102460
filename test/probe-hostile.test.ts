// The planner's date histogram from a hostile service: every bucket is checked before its count is
// used. Regression: a `doc_count` of "59" was summed as text ("0059"), stored in the state by a
// re-check, and every later run failed with "not a state this version wrote".
import { describe, expect } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunningEmulator } from "../src/emulator/server.js";
import { answerToken, startHostileService } from "./support/hostile-service.js";
import type { HostileService } from "./support/hostile-service.js";
import { kubernetesJobsYaml } from "./support/jobs-pipeline.js";
import { runCli } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

type Bucket = Record<string, unknown>;
type Spoil = (buckets: Bucket[]) => unknown;

/** What the proxy does to the buckets of the next histograms; undefined passes them through. */
let spoil: Spoil | undefined;

const it = useEmulator({ density: 5 }).extend<{ proxyEnv: Record<string, string> }>({
  /** The environment of a CLI run that reaches the emulator through the proxy. */
  proxyEnv: [
    async ({ service }, use) => {
      const proxy = await startProxy(service.emulator);
      try {
        await use({ ...service.env, MDQ_BASE_URL: proxy.url, MDQ_AUTH_URL: proxy.url });
      } finally {
        await proxy.close();
      }
    },
    { scope: "file" },
  ],
});

/** The emulator behind a proxy that rewrites the histogram's buckets as the test says. */
function startProxy(emulator: RunningEmulator): Promise<HostileService> {
  return startHostileService(async ({ path, body, req }, res) => {
    if (path === "/oauth2/token") return answerToken(res);
    const upstream = await fetch(`${emulator.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: await emulatorAuthorization(emulator) },
      body,
    });
    let text = await upstream.text();
    if (spoil !== undefined && path.endsWith("/aggs") && upstream.ok) {
      const answer = JSON.parse(text) as { data: { aggregations: Record<string, { buckets: Bucket[] }> } };
      for (const aggregation of Object.values(answer.data.aggregations)) {
        const spoiled = spoil(aggregation.buckets);
        if (spoiled === undefined) delete (aggregation as Partial<typeof aggregation>).buckets;
        else aggregation.buckets = spoiled as Bucket[];
      }
      text = JSON.stringify(answer);
    }
    void req;
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(text);
  });
}

let token: string | undefined;
async function emulatorAuthorization(emulator: RunningEmulator): Promise<string> {
  token ??= (
    (await (
      await fetch(`${emulator.url}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: emulator.clientId,
          client_secret: emulator.clientSecret,
        }),
      })
    ).json()) as { access_token: string }
  ).access_token;
  return `Bearer ${token}`;
}

const window = ["--start", "2026-03-10T00:00:00Z", "--end", "2026-03-10T03:00:00Z"];
const first = (change: (bucket: Bucket) => Bucket): Spoil => {
  return (buckets) => buckets.map((bucket, index) => (index === 0 ? change(bucket) : bucket));
};

const CASES: [string, Spoil, string][] = [
  ["a doc_count as text", first((b) => ({ ...b, doc_count: "59" })), 'bucket 0 has doc_count "59"'],
  ["a fractional doc_count", first((b) => ({ ...b, doc_count: 59.5 })), "bucket 0 has doc_count 59.5"],
  ["a negative doc_count", first((b) => ({ ...b, doc_count: -1 })), "bucket 0 has doc_count -1"],
  ["a doc_count past a safe integer", first((b) => ({ ...b, doc_count: 2 ** 60 })), "has doc_count"],
  ["a key that is not a time", first((b) => ({ ...b, key: "soon" })), 'bucket 0 has key "soon"'],
  [
    "a key outside the window",
    first((b) => ({ ...b, key: Date.parse("2030-01-01T00:00:00Z") })),
    "bucket 0 has key",
  ],
  ["a key off the slices' grid", first((b) => ({ ...b, key: (b.key as number) + 1 })), "not on the 1h grid"],
  ["the same bucket twice", (buckets) => [...buckets, buckets[0]], "twice"],
  ["no buckets at all", () => undefined, 'has no "per_slice.buckets" array'],
];

describe("a hostile service's date histogram", () => {
  it.for(CASES)(
    "plan stops on %s, naming the service and the value",
    async ([, bad, message], { workspace, proxyEnv }) => {
      const file = await workspace.write(
        "plan.yaml",
        kubernetesJobsYaml("hostile-plan", '  - format: ndjson\n    to: "-"\n'),
      );
      spoil = bad;
      try {
        const result = await runCli(["plan", file, ...window], { env: proxyEnv });
        expect(result.code, result.stderr).toBe(1);
        expect(result.stderr).toContain(
          "jobs aggs (the plan's date histogram): the service's date histogram",
        );
        expect(result.stderr).toContain(message);
      } finally {
        spoil = undefined;
      }
    },
  );

  it("a re-check that gets a bad bucket fails without touching the state, and the next good one works", async ({
    workspace,
    proxyEnv,
  }) => {
    const out = join(workspace.dir, "out");
    const file = await workspace.write(
      "recheck.yaml",
      kubernetesJobsYaml("hostile-recheck", `  - format: ndjson\n    to: ${out}\n`),
    );
    expect((await runCli(["run", file, ...window], { env: proxyEnv })).code).toBe(0);
    const state = await readFile(join(out, "_mdq-export/state.json"), "utf8");

    spoil = first((b) => ({ ...b, doc_count: String(b.doc_count) }));
    try {
      const bad = await runCli(["run", file, ...window, "--recheck"], { env: proxyEnv });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("not a whole number of 0 or more");
    } finally {
      spoil = undefined;
    }
    expect(await readFile(join(out, "_mdq-export/state.json"), "utf8")).toBe(state);

    const good = await runCli(["run", file, ...window, "--recheck"], { env: proxyEnv });
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toContain("Re-checked committed slices: none changed");
  });
});
