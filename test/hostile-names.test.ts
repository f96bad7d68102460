// A hostile service's field names: a name of 400,000 characters, 100,000 fields, control characters
// and one field listed twice with two types, answered by a stand-in service as its jobs mappings.
// `schema` (which asks for the mappings only) stops at once on each name or count past a bound, naming
// the bound or the fields, and gives a field of two types one column that holds both, with nothing of
// the names reaching the terminal raw.
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { kubernetesJobsYaml } from "./support/jobs-pipeline.js";
import { createWorkspace, runCli } from "./support/cli-harness.js";
import type { Workspace } from "./support/cli-harness.js";
import { answerToken, startHostileService } from "./support/hostile-service.js";
import type { HostileService } from "./support/hostile-service.js";

let service: HostileService | undefined;
let workspace: Workspace | undefined;
afterEach(async () => {
  await service?.close();
  await workspace?.remove();
  service = undefined;
  workspace = undefined;
});

function answerMappings(res: ServerResponse, fields: readonly { name: string; type: string }[]): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      data: { fields, field_count: fields.length },
      meta: { trace_id: "t", rate_limit: { daily_remaining: 1000 } },
    }),
  );
}

const OWN = [
  { name: "@timestamp", type: "date" },
  { name: "job.state", type: "keyword" },
];

/** `mdq-export schema` of a jobs pipeline against a service whose mappings are `fields`. */
async function schemaOf(
  fields: readonly { name: string; type: string }[],
  columnNames: "as_is" | "snake_case",
): Promise<Awaited<ReturnType<typeof runCli>>> {
  service = await startHostileService(({ path }, res) =>
    path === "/oauth2/token" ? answerToken(res) : answerMappings(res, fields),
  );
  workspace = await createWorkspace("mdq-hostile-names-");
  const file = await workspace.write(
    "names.yaml",
    kubernetesJobsYaml(
      "hostile-names",
      `  - format: parquet
    to: ${join(workspace.dir, "out")}
    column_names: ${columnNames}
`,
    ),
  );
  return runCli(["schema", file], {
    env: {
      MDQ_BASE_URL: service.url,
      MDQ_AUTH_URL: service.url,
      MDQ_CLIENT_ID: "hostile-id",
      MDQ_CLIENT_SECRET: "hostile-secret-value",
    },
  });
}

// eslint-disable-next-line no-control-regex -- what must not reach a terminal
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;

describe("names from a hostile service", () => {
  it("a 400,000-character name: refused in well under a second of naming, the name cut in the message", async () => {
    const started = performance.now();
    const result = await schemaOf([...OWN, { name: "A".repeat(400_000), type: "keyword" }], "snake_case");
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `the field "${"A".repeat(200)}…(400000 characters)" has a name of 400000 characters, more than schema.max_name_chars (1024)`,
    );
    expect(result.stderr.length).toBeLessThan(5_000);
  });

  it("100,000 fields: refused naming schema.max_columns, nothing printed per field", async () => {
    const many = Array.from({ length: 100_000 }, (_, index) => ({ name: `f${index}`, type: "keyword" }));
    const result = await schemaOf([...OWN, ...many], "snake_case");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("100004 columns, more than schema.max_columns (2000)");
    expect(result.stdout).toBe("");
    expect(result.stderr.length).toBeLessThan(5_000);
  });

  it("control characters: escaped in the schema under snake_case, refused as a column name as_is", async () => {
    const evil = [...OWN, { name: "x\u001b]0;owned\u0007\u0000", type: "keyword" }];
    const snake = await schemaOf(evil, "snake_case");
    expect(snake.code, snake.stderr).toBe(0);
    expect(snake.stdout).toContain("x\\u001b]0;owned\\u0007\\u0000");
    expect(snake.stdout).not.toMatch(RAW_CONTROL);
    await service?.close();
    await workspace?.remove();
    const asIs = await schemaOf(evil, "as_is");
    expect(asIs.code).toBe(1);
    expect(asIs.stderr).toContain(
      'the column name "x\\u001b]0;owned\\u0007\\u0000" holds a control character',
    );
    expect(asIs.stderr).not.toMatch(RAW_CONTROL);
  });

  it("one field twice with two types: one text column that holds both, and a warning naming the field and both types", async () => {
    const result = await schemaOf([...OWN, { name: "job.state", type: "long" }], "as_is");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/job\.state\s+string/);
    expect(result.stderr).toContain(
      '"field":"job.state","mapping_types":["keyword","long"],"column_type":"string"',
    );
  });
});
