// A pipeline's YAML around a `source` section, for tests of what validation says about it: the
// section starts at line 8, so positions in expected messages stay put when the rest changes.

/** A valid pipeline (its secret from ${MDQ_CLIENT_SECRET}) with `source` lines from line 8, then `rest`. */
export function pipelineText(source: string, rest = ""): string {
  return `name: nightly-jobs
service:
  base_url: https://mdq.example.com
  auth_url: https://auth.example.com
  client_id: exporter
  client_secret: \${MDQ_CLIENT_SECRET}
source:
${source}
sinks:
  - { format: ndjson, to: ./out }
${rest}`;
}

/** 1-based line and column of the first occurrence of `needle` in `text`, as validation reports it. */
export function positionOf(text: string, needle: string): { line: number; column: number } {
  const index = text.indexOf(needle);
  if (index < 0) throw new Error(`${needle} is not in the pipeline`);
  const before = text.slice(0, index).split("\n");
  return { line: before.length, column: (before.at(-1) as string).length + 1 };
}
