import { describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { parsePipeline } from "./load-pipeline.js";
import { defaultComponents } from "../components/environment.js";

const remote = `name: remote
service:
  base_url: \${MDQ_BASE_URL}
  auth_url: \${MDQ_AUTH_URL}
  client_id: \${MDQ_CLIENT_ID}
  client_secret: \${MDQ_CLIENT_SECRET}
source: { kind: jobs, application: atr, app_type: [ec2], domain: ["*"], window: { start: now-1d/d, end: now/d, slice: 1h } }
sinks: [{ format: ndjson, to: ./out/remote }]
`;

describe("parsePipeline without the service", () => {
  it("needs the service's variables by default, naming the first missing one", () => {
    expect(() => parsePipeline(remote, "remote.yaml", { components: defaultComponents(), env: {} })).toThrow(
      ConfigError,
    );
    try {
      parsePipeline(remote, "remote.yaml", { components: defaultComponents(), env: {} });
    } catch (error) {
      expect((error as ConfigError).issues[0]?.message).toContain("MDQ_BASE_URL");
    }
  });

  it("loads the rest of the pipeline for commands that request nothing", () => {
    const pipeline = parsePipeline(remote, "remote.yaml", {
      components: defaultComponents(),
      env: {},
      withoutService: true,
    });
    expect(pipeline.sinks[0]?.to).toBe("./out/remote");
    expect(pipeline.service.mode).toBe("embedded");
  });

  it("still reports problems outside the service section", () => {
    const broken = remote.replace("kind: jobs", "kind: job");
    expect(() =>
      parsePipeline(broken, "remote.yaml", {
        components: defaultComponents(),
        env: {},
        withoutService: true,
      }),
    ).toThrow(/source\.kind/);
  });
});
