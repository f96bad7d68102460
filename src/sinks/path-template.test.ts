import { describe, expect, it } from "vitest";
import { NULL_PARTITION, compilePathTemplate, sanitizePathValue } from "./path-template.js";
import type { TemplateValues } from "./path-template.js";

const values: TemplateValues = {
  slice: { id: "20261121T050000Z", start: new Date("2026-11-21T05:00:00Z") },
  runId: "run-1",
  ext: "parquet",
};

function render(template: string, row: Record<string, unknown>, seq = 0): string {
  const compiled = compilePathTemplate(template);
  return compiled.withSeq(compiled.renderKey(values, row), seq);
}

describe("path templates", () => {
  it("fills slice times in UTC, the slice id, a padded seq, the extension and the run id", () => {
    expect(render("dt={date}/hour={hour}/part-{slice}-{seq}-{run_id}.{ext}", {}, 3)).toBe(
      "dt=2026-11-21/hour=05/part-20261121T050000Z-0003-run-1.parquet",
    );
  });

  it("takes Hive-style partitions from record values, flat or nested", () => {
    const template = "domain={atr.domain_name}/{slice}-{seq}.{ext}";
    expect(render(template, { "atr.domain_name": "payments" })).toBe(
      "domain=payments/20261121T050000Z-0000.parquet",
    );
    expect(render(template, { atr: { domain_name: "billing" } })).toBe(
      "domain=billing/20261121T050000Z-0000.parquet",
    );
  });

  it("uses the Hive default partition for missing, null and empty values", () => {
    for (const row of [{}, { d: null }, { d: "" }]) {
      expect(render("d={d}/{slice}.{ext}", row)).toBe(`d=${NULL_PARTITION}/20261121T050000Z.parquet`);
    }
  });

  const hostile: [string, unknown][] = [
    ["parent directory", ".."],
    ["climbing path", "../../etc/passwd"],
    ["absolute path", "/etc/passwd"],
    ["backslashes", "..\\..\\windows"],
    ["NUL", "a\u0000b"],
    ["control characters", "line\nbreak\r\ttab\u001b[31m"],
    ["current directory", "."],
    ["hidden name", ".bashrc"],
    ["object", { toString: "../x" }],
  ];
  for (const [label, value] of hostile) {
    it(`keeps a record value inside the root: ${label}`, () => {
      const path = render("{v}/{slice}.{ext}", { v: value });
      const components = path.split("/");
      expect(components).toHaveLength(2);
      // eslint-disable-next-line no-control-regex
      expect(components[0]).not.toMatch(/^\.|[/\\\u0000-\u001f]/);
      expect(path.startsWith("/")).toBe(false);
    });
  }

  it("escapes reversibly, like Hive", () => {
    const escaped = sanitizePathValue("a/b%c=d");
    expect(escaped).toBe("a%2Fb%25c%3Dd");
    expect(decodeURIComponent(escaped)).toBe("a/b%c=d");
  });

  it("caps very long values with a hash, distinct for distinct values", () => {
    const a = sanitizePathValue("é".repeat(5000) + "a");
    const b = sanitizePathValue("é".repeat(5000) + "b");
    expect(Buffer.byteLength(a)).toBeLessThanOrEqual(96);
    expect(a).not.toBe(b);
    expect(render("{v}/{slice}.{ext}", { v: "x".repeat(10_000) }).length).toBeLessThan(150);
  });

  it("refuses templates that escape by themselves", () => {
    for (const template of [
      "/abs/{slice}",
      "../{slice}",
      "a//{slice}",
      "a\\{slice}",
      "{slice",
      "{}/{slice}",
    ]) {
      expect(() => compilePathTemplate(template), template).toThrow(/path template/);
    }
  });
});
