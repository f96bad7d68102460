// Credentials in a URL the user gives reach no message in any encoding: a service at `base_url` that
// echoes an Authorization header and the URL percent-encoded, and an unreachable `s3.endpoint`
// carrying userinfo. Real HTTP servers and a real S3 client; the full CLI for the service.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SinkError } from "../src/errors.js";
import { createS3Store } from "../src/sinks/s3/s3-store.js";
import { s3OptionsSchema } from "../src/sinks/s3/s3-options.js";
import { createWorkspace, runCli } from "./support/cli-harness.js";
import type { Workspace } from "./support/cli-harness.js";
import { answerToken, startHostileService } from "./support/hostile-service.js";
import { jobsPipelineYaml } from "./support/jobs-pipeline.js";

const USER = "bob";
const PASSWORD = "Sup3r/secret-pw";
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString("base64");

let workspace: Workspace;
beforeAll(async () => {
  workspace = await createWorkspace("mdq-url-secrets-");
});
afterAll(async () => {
  await workspace?.remove();
});

describe("credentials in base_url", () => {
  it("are masked when the service echoes them as a Basic header or a percent-encoded URL", async () => {
    const service = await startHostileService(({ path, req }, res) => {
      if (path === "/oauth2/token") return answerToken(res);
      // A proxy in front of the service that answers with what it saw, and what it was told.
      res.writeHead(400, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: `rejected ${req.method} with Authorization: Basic ${BASIC}`,
          forwarded: encodeURIComponent(`http://${USER}:${encodeURIComponent(PASSWORD)}@upstream/v3`),
          proxy_authorization: `Basic ${BASIC}`,
        }),
      );
    });
    try {
      const out = join(workspace.dir, "base-url");
      const file = await workspace.write(
        "base-url.yaml",
        jobsPipelineYaml({ name: "base-url", out, endHour: 1 }),
      );
      const baseUrl = service.url.replace("http://", `http://${USER}:${encodeURIComponent(PASSWORD)}@`);
      const result = await runCli(["run", file, "--debug", "--log-format", "json"], {
        env: {
          MDQ_BASE_URL: baseUrl,
          MDQ_AUTH_URL: service.url,
          MDQ_CLIENT_ID: "id",
          MDQ_CLIENT_SECRET: "client-secret-value",
        },
      });
      const text = `${result.stdout}${result.stderr}`;
      expect(result.code, text).not.toBe(0);
      expect(text).toContain("[redacted]");
      for (const leak of [BASIC, PASSWORD, encodeURIComponent(PASSWORD), "secret-pw"])
        expect(text).not.toContain(leak);
    } finally {
      await service.close();
    }
  });
});

describe("credentials in s3.endpoint", () => {
  it("are not shown when the endpoint cannot be reached", async () => {
    process.env.AWS_ACCESS_KEY_ID ??= "test";
    process.env.AWS_SECRET_ACCESS_KEY ??= "test";
    const endpoint = `http://minio-admin:${encodeURIComponent(PASSWORD)}@127.0.0.1:9`;
    const store = createS3Store(
      "s3://exports/p",
      s3OptionsSchema.parse({ region: "us-east-1", endpoint, force_path_style: true }),
      { run: { pipelineName: "s3", runId: "run-s3", startedAt: new Date("2026-11-21T06:00:00Z") } },
    );
    try {
      const error: unknown = await store.putObject("x", "y").catch((caught: unknown) => caught);
      expect((error as SinkError).code).toBe("S3_UNREACHABLE");
      const chain: string[] = [];
      for (let current: unknown = error; current instanceof Error; current = current.cause)
        chain.push(current.message, current.stack ?? "");
      const text = chain.join("\n");
      expect(text).toContain("http://127.0.0.1:9/");
      for (const leak of [PASSWORD, encodeURIComponent(PASSWORD), "secret-pw", "minio-admin"])
        expect(text).not.toContain(leak);
    } finally {
      await store.close();
    }
  });
});
