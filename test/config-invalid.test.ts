// Each kind of invalid pipeline definition: the message names the file, line and column, the path,
// what was found and what is allowed. Nothing here reaches a service: validation is offline.
import { describe, expect, it } from "vitest";
import { parsePipeline } from "../src/config/load-pipeline.js";
import { ConfigError } from "../src/errors.js";
import type { ConfigIssue } from "../src/errors.js";
import { pipelineText } from "./support/pipeline-text.js";
import { defaultComponents } from "../src/components/environment.js";

const now = new Date("2026-11-21T15:00:00Z");
const env = { MDQ_CLIENT_SECRET: "s3cret-value", SALT: "0123456789abcdef0123" };

const JOBS = `  kind: jobs
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: now-1d/d, end: now/d, slice: 1h }`;

function problems(text: string, environment: Record<string, string> = env): ConfigIssue[] {
  try {
    parsePipeline(text, "jobs.yaml", { components: defaultComponents(), env: environment, now });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const configError = error as ConfigError;
    for (const issue of configError.issues) {
      if (issue.line !== undefined)
        expect(configError.message).toContain(`jobs.yaml:${issue.line}:${issue.column}`);
    }
    return [...configError.issues];
  }
  throw new Error("expected the pipeline to be refused");
}

function only(text: string, environment?: Record<string, string>): ConfigIssue {
  const found = problems(text, environment);
  expect(found).toHaveLength(1);
  return found[0] as ConfigIssue;
}

describe("invalid pipelines", () => {
  it("accepts the base pipeline", () => {
    expect(
      parsePipeline(pipelineText(JOBS), "jobs.yaml", { components: defaultComponents(), env, now }).source
        .kind,
    ).toBe("jobs");
  });

  it("a filter pattern that needs backtracking, at its line and column", () => {
    const transforms = 'transforms:\n  - filter: { field: job.state, matches: "^(?!FAILED)" }';
    const issue = only(pipelineText(JOBS, transforms));
    expect(issue).toMatchObject({ path: "transforms[0].filter.matches", file: "jobs.yaml", line: 16 });
    expect(issue.message).toContain("not a regular expression mdq-export can run in linear time");
  });

  it("unknown key, with a close match and the keys allowed", () => {
    const issue = only(pipelineText(`${JOBS}\n  strategyy: pit`));
    expect(issue).toMatchObject({ path: "source.strategyy", file: "jobs.yaml", line: 13, column: 3 });
    expect(issue.message).toMatch(
      /unknown key "strategyy"; did you mean "strategy"\? Allowed here: kind, application/,
    );
  });

  it("wrong type", () => {
    const issue = only(pipelineText(`${JOBS}\n  page_size: lots`));
    expect(issue).toMatchObject({ path: "source.page_size", line: 13, column: 14 });
    expect(issue.message).toBe('expected a number, found "lots"');
  });

  it("encode threads neither auto nor a count, and too many", () => {
    const text = (value: string) => pipelineText(JOBS, `limits:\n  encode_threads: ${value}\n`);
    expect(only(text("lots"))).toMatchObject({
      path: "limits.encode_threads",
      column: 19,
      message: '"lots" is neither one of auto nor a number',
    });
    expect(only(text("atuo")).message).toBe(
      '"atuo" is neither one of auto nor a number; did you mean "auto"?',
    );
    expect(only(text("65")).message).toBe("number 65 is out of range: must be at most 64");
    expect(only(text("-1")).message).toBe("number -1 is out of range: must be at least 0");
  });

  it("bad enum value", () => {
    const issue = only(pipelineText(`${JOBS}\n  strategy: scrol`));
    expect(issue).toMatchObject({ path: "source.strategy", line: 13, column: 13 });
    expect(issue.message).toBe(
      '"scrol" is not one of auto, scroll, pit, batch, aggs; did you mean "scroll"?',
    );
  });

  it("inverted window", () => {
    const issue = only(
      pipelineText(JOBS.replace("start: now-1d/d, end: now/d", "start: now/d, end: now-1d/d")),
    );
    expect(issue).toMatchObject({ path: "source.window.end", line: 12, column: 32 });
    expect(issue.message).toMatch(/end must be after start/);
  });

  it("unreadable window bound", () => {
    const issue = only(pipelineText(JOBS.replace("start: now-1d/d", "start: 2026-11-20T00:00:00")));
    expect(issue).toMatchObject({ path: "source.window.start", line: 12, column: 20 });
    expect(issue.message).toMatch(/needs a zone/);
  });

  it("application the kind does not offer", () => {
    const issue = only(pipelineText(JOBS.replace("application: atr", "application: klewer")));
    expect(issue).toMatchObject({ path: "source.application", line: 9, column: 16 });
    expect(issue.message).toBe('"klewer" is not offered for jobs; allowed: atr');
  });

  it("app_type the kind does not offer", () => {
    const issue = only(pipelineText(JOBS.replace("[ec2, kubernetes]", "[ec2, serverless]")));
    expect(issue).toMatchObject({ path: "source.app_type[1]", line: 10, column: 19 });
    expect(issue.message).toBe('"serverless" is not an app_type of v3 jobs; allowed: ec2, kubernetes');
  });

  it("serverless logs from an application other than eventops, scoped by domain", () => {
    const logs = `  kind: logs\n  application: atr\n  app_type: serverless\n  domain: [a]\n  window: last-hour`;
    const found = problems(pipelineText(logs));
    expect(found.map((issue) => [issue.path, issue.line, issue.column])).toEqual([
      // A missing key is reported where its mapping starts.
      ["source.log_group", 8, 3],
      ["source.tenant", 8, 3],
      ["source.stage", 8, 3],
      ["source.application", 9, 16],
      ["source.domain", 11, 11],
    ]);
    expect(found[3]?.message).toMatch(/serverless logs come from application eventops only/);
  });

  it("eventops logs that are not serverless", () => {
    const logs = `  kind: logs\n  application: eventops\n  app_type: ec2\n  domain: [a]\n  window: last-hour`;
    const issue = only(pipelineText(logs));
    expect(issue).toMatchObject({ path: "source.app_type", line: 10, column: 13 });
    expect(issue.message).toMatch(/eventops logs are serverless/);
  });

  it("wildcard mixed with names, and an empty list", () => {
    const found = problems(pipelineText(JOBS.replace('["*"]', '[a, "*"]')));
    expect(found).toEqual([expect.objectContaining({ path: "source.domain[1]", line: 11, column: 15 })]);
    expect(found[0]?.message).toMatch(/the wildcard "\*" must be the only element of domain/);
    const empty = only(pipelineText(JOBS.replace('["*"]', "[]")));
    expect(empty).toMatchObject({
      path: "source.domain",
      line: 11,
      column: 11,
      message: "must not be empty",
    });
  });

  it("billing with the wildcard", () => {
    const billing = `  kind: billing\n  domain: ["*"]\n  window: { start: now-7d/d }`;
    const issue = only(pipelineText(billing));
    expect(issue).toMatchObject({ path: "source.domain[0]", line: 9, column: 12 });
    expect(issue.message).toMatch(/billing is queried once per domain/);
  });

  it("strategy the kind does not offer", () => {
    const issue = only(pipelineText(`${JOBS}\n  strategy: batch`));
    expect(issue).toMatchObject({ path: "source.strategy", line: 13, column: 13 });
    expect(issue.message).toBe('"batch" is not offered for v3 jobs; allowed: auto, pit, aggs');
    const logs = `  kind: logs\n  application: atr\n  app_type: ec2\n  domain: [a]\n  window: last-hour\n  strategy: pit`;
    expect(only(pipelineText(logs)).message).toBe(
      '"pit" is not offered for v2 logs; allowed: auto, scroll, batch, aggs',
    );
  });

  it("page size over the v3 maximum", () => {
    const issue = only(pipelineText(`${JOBS}\n  page_size: 20000`));
    expect(issue).toMatchObject({ path: "source.page_size", line: 13, column: 14 });
    expect(issue.message).toMatch(/above 10000/);
  });

  it("unknown field, in fields and in filters, with close matches", () => {
    const found = problems(
      pipelineText(`${JOBS}\n  fields: [job.id, job.nam]\n  filters: [{ term: { job.stat: FAILED } }]`),
    );
    expect(found).toEqual([
      expect.objectContaining({ path: "source.fields[1]", line: 13, column: 20 }),
      expect.objectContaining({ path: "source.filters[0].term.job.stat", line: 14, column: 33 }),
    ]);
    expect(found[0]?.message).toBe(
      'jobs have no field "job.nam" (in fields); did you mean "job.name" or "job.name.text"?',
    );
    expect(found[1]?.message).toMatch(/no field "job.stat" \(in filters\); did you mean "job.state"/);
  });

  it("bad filter kind", () => {
    const issue = only(pipelineText(`${JOBS}\n  filters:\n    - wildcard: { job.name: "a*" }`));
    expect(issue).toMatchObject({ path: "source.filters[0].wildcard", line: 14, column: 7 });
    expect(issue.message).toMatch(
      /unknown key "wildcard".*Allowed here: term, terms, range, exists, bool, match, match_phrase/,
    );
  });

  it("aggs strategy without aggs", () => {
    const issue = only(pipelineText(`${JOBS}\n  strategy: aggs`));
    expect(issue).toMatchObject({ path: "source.aggs", line: 8, column: 3 });
    expect(issue.message).toMatch(/required with strategy aggs/);
  });

  it("transform referring to a field the source will not return", () => {
    const transforms = "transforms:\n  - flatten: {}\n  - rename: { job.execution_time.elapsed: elapsed_s }";
    const issue = only(pipelineText(`${JOBS}\n  fields: [job.id, job.state]`, transforms));
    expect(issue).toMatchObject({
      path: "transforms[1].rename.job.execution_time.elapsed",
      line: 18,
      column: 15,
    });
    expect(issue.message).toMatch(/field "job.execution_time.elapsed" is not among the columns/);
  });

  it("unknown transform and bad transform config", () => {
    const transforms = "transforms:\n  - renam: { a: b }\n  - redact: { fields: [job.id], method: encrypt }";
    const found = problems(pipelineText(JOBS, transforms));
    expect(found.map((issue) => [issue.path, issue.line, issue.column])).toEqual([
      ["transforms[0].renam", 16, 5],
      ["transforms[1].redact.method", 17, 41],
    ]);
    expect(found[0]?.message).toMatch(/did you mean "rename"/);
  });

  it("missing environment variable, named with its line and column", () => {
    const issue = only(pipelineText(JOBS), {});
    expect(issue).toMatchObject({ path: "service.client_secret", line: 6, column: 18 });
    expect(issue.message).toBe(
      "environment variable MDQ_CLIENT_SECRET is not set; set it, or set MDQ_CLIENT_SECRET_FILE to the path of a file that holds the secret (a mounted Kubernetes or Docker secret); a secret has no default",
    );
  });

  it("a literal client secret, without echoing it", () => {
    const text = pipelineText(JOBS).replace("${MDQ_CLIENT_SECRET}", "hunter2-literal");
    const issue = only(text);
    expect(issue).toMatchObject({ path: "service.client_secret", line: 6, column: 18 });
    expect(issue.message).toMatch(/secrets come in only through \$\{ENV\}/);
    expect(JSON.stringify(problems(text))).not.toContain("hunter2");
  });

  it("a literal redact salt", () => {
    const issue = only(
      pipelineText(JOBS, "transforms:\n  - redact: { fields: [job.id], salt: literal-salt-0123456789 }"),
    );
    expect(issue).toMatchObject({ path: "transforms[0].redact.salt", line: 16, column: 39 });
  });

  it("several problems at once, sorted by position", () => {
    const found = problems(
      pipelineText(`${JOBS}\n  strategy: scrol\n  page_size: -1`).replace("nightly-jobs", "Nightly Jobs"),
    );
    expect(found.map((issue) => issue.path)).toEqual(["name", "source.strategy", "source.page_size"]);
  });
});
