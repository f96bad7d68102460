// The emulator facing careless or hostile clients: an aggregation too big to answer is refused like the
// engine's too-many-buckets (not built to gigabytes), a 500 carries no internal text, v1 batch urls
// without a token is a 401 as the spec shows, and the command guards its credentials.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { parseEmulatorArgs } from "../src/cli/commands/emulator.js";
import { post, WINDOW } from "./emulator-http.js";
import { runCli } from "./support/cli-harness.js";
import { tokenFixture, useEmulator } from "./support/use-emulator.js";

const internal: string[] = [];
/**
 * A clock that fails on demand, after a given number of further readings (the token check reads it
 * first): an internal failure the emulator did not plan for.
 */
let readingsBeforeFailure = Infinity;
const scope = { application: "atr", ...WINDOW, app_type: ["kubernetes"], domain: ["*"] };

const it = useEmulator(
  {
    seed: 3,
    clock: () => {
      if (readingsBeforeFailure-- <= 0) throw new Error("clock source /srv/emulator/state.db unavailable");
      return Date.now();
    },
    onInternalError: (error, reference) => internal.push(`${reference} ${String(error)}`),
  },
  { preset: false },
).extend<{ token: string }>({ token: tokenFixture() });

describe("emulator limits", () => {
  it("refuses a 1ms date_histogram over hours with 400 too_many_buckets, nested or not", async ({
    service,
    token,
  }) => {
    const { emulator } = service;
    for (const aggs of [
      { h: { date_histogram: { field: "@timestamp", fixed_interval: "1ms" } } },
      {
        by: {
          terms: { field: "workload.state" },
          aggs: { h: { date_histogram: { field: "@timestamp", fixed_interval: "10ms" } } },
        },
      },
    ]) {
      const answer = await post(emulator, "/v3/jobs/aggs", { ...scope, aggs }, token);
      expect(answer.status).toBe(400);
      expect(answer.body["error"]).toBe("too_many_buckets_exception");
      expect(String(answer.body["details"])).toContain("Must be less than or equal to: [65535]");
      expect(answer.text.length).toBeLessThan(10_000);
    }
    // An ordinary histogram still answers.
    const hourly = { h: { date_histogram: { field: "@timestamp", fixed_interval: "1h" } } };
    expect((await post(emulator, "/v3/jobs/aggs", { ...scope, aggs: hourly }, token)).status).toBe(200);
  });

  it("answers v1 batch urls without a batch token with 401, status_code and detail", async ({
    service,
    token,
  }) => {
    const { emulator } = service;
    for (const body of [{}, { token: "" }, { token: "   " }]) {
      const answer = await post(emulator, "/v1/logs/batch/urls", body, token);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ status_code: 401, detail: "missing batch token" });
    }
  });

  it("keeps internal error text out of a 500 and hands it to the operator", async ({ service, token }) => {
    const { emulator } = service;
    readingsBeforeFailure = 1;
    const answer = await post(emulator, "/v3/jobs/query", scope, token).finally(
      () => (readingsBeforeFailure = Infinity),
    );
    expect(answer.status).toBe(500);
    expect(answer.body["error"]).toBe("internal_error");
    expect(String(answer.body["details"])).toMatch(/^internal error \(reference [0-9a-f-]{36}\)$/);
    const reference = /reference ([0-9a-f-]{36})/.exec(String(answer.body["details"]))?.[1];
    expect(answer.text).not.toContain("/srv/emulator");
    expect(internal).toContainEqual(`${reference} Error: clock source /srv/emulator/state.db unavailable`);
  });
});

describe("the emulator command's credentials", () => {
  it("reads the secret from a file or the environment, not only argv", async ({ workspace }) => {
    const { dir } = workspace;
    const file = join(dir, "secret");
    await writeFile(file, "from-a-file\n");
    expect(parseEmulatorArgs(["--client-secret-file", file], {})).toMatchObject({
      clientSecret: "from-a-file",
    });
    expect(
      parseEmulatorArgs([], { MDQ_EMULATOR_CLIENT_ID: "ci", MDQ_EMULATOR_CLIENT_SECRET: "from-env" }),
    ).toMatchObject({ clientId: "ci", clientSecret: "from-env" });
    expect(() => parseEmulatorArgs(["--client-secret-file", join(dir, "missing")], {})).toThrow(
      /--client-secret-file: cannot read .*missing \(ENOENT\)/,
    );
  });

  it("warns when it binds beyond loopback with the demo credentials, and never prints a supplied secret", async () => {
    const stopped = AbortSignal.abort();
    const open = await runCli(["emulator", "--host", "0.0.0.0", "--port", "0"], { signal: stopped });
    expect(open.code).toBe(0);
    expect(open.stderr).toContain("warning: the emulator listens on 0.0.0.0");
    expect(open.stderr).toContain("MDQ_EMULATOR_CLIENT_SECRET");

    const guarded = await runCli(["emulator", "--host", "0.0.0.0", "--port", "0"], {
      signal: stopped,
      env: { MDQ_EMULATOR_CLIENT_SECRET: "a-real-secret-4711" },
    });
    expect(guarded.code).toBe(0);
    expect(guarded.stderr).not.toContain("warning");
    expect(guarded.stdout + guarded.stderr).not.toContain("a-real-secret-4711");

    const local = await runCli(["emulator", "--port", "0"], { signal: stopped });
    expect(local.stderr).not.toContain("warning");
  });
});
