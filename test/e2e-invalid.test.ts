// Invalid pipeline definitions through the command line: `run` and `plan` exit 2, name the file, line
// and column of the problem, and send nothing at all to the service (not even a token request).
import { describe, expect } from "vitest";
import { listAllFiles } from "./support/read-output.js";
import { positionOf } from "./support/pipeline-text.js";
import { emulatorEnv, EXPORT_EMULATOR, REMOTE_SERVICE_YAML, runCli } from "./support/cli-harness.js";
import type { TestService } from "./support/cli-harness.js";
import { serviceFixture, useEmulator } from "./support/use-emulator.js";

/** `service` answers the valid base definition. */
const it = useEmulator().extend<{ untouchedService: TestService }>({
  /** What every invalid definition points at; it must never see a request. */
  untouchedService: serviceFixture(EXPORT_EMULATOR),
});

const SOURCE = `  kind: jobs
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "2026-03-10T00:00:00Z", end: "2026-03-10T02:00:00Z", slice: 1h }
  strategy: pit
  fields: [job.id, job.state, "@timestamp"]`;

/** A valid jobs pipeline whose source section, transforms or service a case replaces. */
function pipeline(parts: { source?: string; transforms?: string; service?: string } = {}): string {
  return `name: e2e-invalid
${parts.service ?? REMOTE_SERVICE_YAML}
source:
${parts.source ?? SOURCE}
transforms:
${parts.transforms ?? "  - flatten: {}"}
sinks:
  - format: parquet
    to: ./out
`;
}

interface InvalidCase {
  name: string;
  yaml: string;
  /** Where the problem is reported: the text the position points at. */
  at: string;
  /** Words the message must hold. */
  says: RegExp;
  env?: Record<string, string>;
}

const CASES: InvalidCase[] = [
  {
    name: "unknown key",
    yaml: pipeline({ source: `${SOURCE}\n  page_sise: 100` }),
    at: "page_sise",
    says: /unknown key "page_sise"; did you mean "page_size"/,
  },
  {
    name: "wrong type",
    yaml: pipeline({ source: `${SOURCE}\n  page_size: many` }),
    at: "many",
    says: /source\.page_size: expected a number, found "many"/,
  },
  {
    name: "bad enum value",
    yaml: pipeline({ source: SOURCE.replace("strategy: pit", "strategy: pitt") }),
    at: "pitt",
    says: /"pitt" is not one of auto, scroll, pit, batch, aggs/,
  },
  {
    name: "inverted window",
    yaml: pipeline({
      source: SOURCE.replace(
        'start: "2026-03-10T00:00:00Z", end: "2026-03-10T02:00:00Z"',
        'start: "2026-03-10T02:00:00Z", end: "2026-03-10T00:00:00Z"',
      ),
    }),
    at: '"2026-03-10T00:00:00Z"',
    says: /source\.window\.end: the window ends .* before or when it starts .*; end must be after start/,
  },
  {
    name: "application the kind does not take",
    yaml: pipeline({ source: SOURCE.replace("application: atr", "application: klewer") }),
    at: "klewer",
    says: /"klewer" is not offered for jobs; allowed: atr/,
  },
  {
    name: "app_type the kind does not take",
    yaml: pipeline({ source: SOURCE.replace("app_type: [ec2, kubernetes]", "app_type: [ec2, serverless]") }),
    at: "serverless",
    says: /source\.app_type\[1\]: "serverless" is not an app_type of v3 jobs; allowed: ec2, kubernetes/,
  },
  {
    name: "wildcard mixed with names",
    yaml: pipeline({ source: SOURCE.replace('domain: ["*"]', 'domain: ["*", alpha.example]') }),
    at: '"*", alpha.example',
    says: /the wildcard "\*" must be the only element of domain/,
  },
  {
    name: "strategy the kind does not offer (batch for jobs)",
    yaml: pipeline({ source: SOURCE.replace("strategy: pit", "strategy: batch") }),
    at: "batch",
    says: /"batch" is not offered for v3 jobs; allowed: auto, pit, aggs/,
  },
  {
    name: "unknown field in fields",
    yaml: pipeline({ source: SOURCE.replace("fields: [job.id,", "fields: [job.idd,") }),
    at: "job.idd",
    says: /jobs have no field "job\.idd" \(in fields\); did you mean "job\.id"\?/,
  },
  {
    name: "transform referring to a field the source will not return",
    yaml: pipeline({ transforms: "  - flatten: {}\n  - rename: { job.name: name }" }),
    at: "job.name",
    says: /transforms\[1\]\.rename\.job\.name: field "job\.name" is not among the columns this stage receives/,
  },
  {
    name: "missing environment variable",
    yaml: pipeline(),
    at: "${MDQ_CLIENT_SECRET}",
    says: /MDQ_CLIENT_SECRET is not set/,
    env: { MDQ_BASE_URL: "http://127.0.0.1:9", MDQ_AUTH_URL: "http://127.0.0.1:9", MDQ_CLIENT_ID: "x" },
  },
  {
    name: "client secret written in the file",
    yaml: pipeline({
      service: `service:
  base_url: \${MDQ_BASE_URL}
  auth_url: \${MDQ_AUTH_URL}
  client_id: \${MDQ_CLIENT_ID}
  client_secret: hunter2-literal`,
    }),
    at: "hunter2-literal",
    says: /secrets come in only through \$\{ENV\}/,
  },
];

describe("invalid definitions through the CLI", () => {
  it("the base definition is valid and plans against the emulator (so the cases below differ by their one fault)", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const file = await workspace.write("base.yaml", pipeline());
    const before = emulator.requestCount();
    const result = await runCli(["plan", file], { env: emulatorEnv(emulator) });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(emulator.requestCount() - before).toBeGreaterThan(0);
  });

  for (const [index, testCase] of CASES.entries()) {
    it(`${testCase.name}: run and plan exit 2 with file:line:column, nothing requested, nothing written`, async ({
      workspace,
      untouchedService,
    }) => {
      const untouched = untouchedService.emulator;
      const file = await workspace.write(`invalid-${index}.yaml`, testCase.yaml);
      const { line, column } = positionOf(testCase.yaml, testCase.at);
      const env = testCase.env ?? emulatorEnv(untouched);
      const filesBefore = await listAllFiles(workspace.dir);
      for (const command of ["run", "plan"]) {
        const result = await runCli([command, file], { env });
        expect(result.code, result.stderr).toBe(2);
        expect(result.stdout).toBe("");
        const problem = result.stderr.split("\n").find((text) => text.includes(`${file}:${line}:`));
        expect(problem, result.stderr).toBeDefined();
        expect(problem).toContain(`${file}:${line}:${column}:`);
        expect(problem).toMatch(testCase.says);
        expect(result.stderr).not.toContain("hunter2-literal");
      }
      expect(untouched.requestCount("/oauth2/token")).toBe(0);
      expect(untouched.requestCount()).toBe(0);
      expect(await listAllFiles(workspace.dir)).toEqual(filesBefore);
    });
  }

  it("validate reports the same problems with exit 2 and requests nothing", async ({
    workspace,
    untouchedService,
  }) => {
    const untouched = untouchedService.emulator;
    const files = await Promise.all(
      CASES.slice(0, 3).map((c, i) => workspace.write(`validate-${i}.yaml`, c.yaml)),
    );
    const result = await runCli(["validate", ...files], { env: emulatorEnv(untouched) });
    expect(result.code).toBe(2);
    CASES.slice(0, 3).forEach((c, i) => {
      const { line, column } = positionOf(c.yaml, c.at);
      expect(result.stderr).toContain(`${files[i]}:${line}:${column}:`);
    });
    expect(untouched.requestCount()).toBe(0);
  });
});
