// The query DSL and aggregations over generated-like sources.
import { describe, expect, it } from "vitest";
import { compileFilters } from "./query-dsl.js";
import { createAggregator } from "./aggregations.js";

const docs = [
  {
    "@timestamp": "2026-03-01T00:10:00.000Z",
    job: { name: "nightly backup", state: "DONE", execution_time: { elapsed: 10 } },
  },
  {
    "@timestamp": "2026-03-01T01:20:00.000Z",
    job: { name: "Backup nightly", state: "FAILED", execution_time: { elapsed: 30 } },
  },
  {
    "@timestamp": "2026-03-01T03:00:00.000Z",
    job: { name: "report", state: "DONE", execution_time: { elapsed: null } },
  },
];

function matching(filters: Parameters<typeof compileFilters>[0]): number[] {
  const predicate = compileFilters(filters, Date.parse("2026-03-02T00:00:00Z"));
  return docs.flatMap((doc, i) => (predicate === undefined || predicate(doc) ? [i] : []));
}

describe("query DSL", () => {
  it("evaluates term, terms, range, exists, match, match_phrase and bool over dotted paths", () => {
    expect(matching([{ term: { "job.state": "DONE" } }])).toEqual([0, 2]);
    expect(matching([{ term: { "job.name.text": { value: "report" } } }])).toEqual([2]);
    expect(matching([{ terms: { "job.state": ["FAILED", "REJECTED"] } }])).toEqual([1]);
    expect(matching([{ range: { "job.execution_time.elapsed": { gt: 10, lte: 30 } } }])).toEqual([1]);
    expect(matching([{ range: { "@timestamp": { gte: "2026-03-01T01:00:00Z" } } }])).toEqual([1, 2]);
    expect(matching([{ range: { "@timestamp": { gte: "now-1d" } } }])).toEqual([0, 1, 2]);
    // Date-math bounds round as a pipeline's window does (the emulator's own parser ignored `/d`
    // and knew no months): now-23h is 01:00, now-23h/d that day's midnight.
    expect(matching([{ range: { "@timestamp": { gte: "now-23h" } } }])).toEqual([1, 2]);
    expect(matching([{ range: { "@timestamp": { gte: "now-23h/d" } } }])).toEqual([0, 1, 2]);
    expect(matching([{ range: { "@timestamp": { gte: "now-1M/M", lt: "now/d" } } }])).toEqual([0, 1, 2]);
    expect(matching([{ exists: { field: "job.execution_time.elapsed" } }])).toEqual([0, 1]);
    expect(matching([{ match: { "job.name": "nightly" } }])).toEqual([0, 1]);
    expect(matching([{ match_phrase: { "job.name": "nightly backup" } }])).toEqual([0]);
    expect(
      matching([
        { bool: { should: [{ term: { "job.state": "FAILED" } }, { match: { "job.name": "report" } }] } },
      ]),
    ).toEqual([1, 2]);
    expect(
      matching([
        {
          bool: { must: { term: { "job.state": "DONE" } }, must_not: [{ match: { "job.name": "report" } }] },
        },
      ]),
    ).toEqual([0]);
    expect(matching([])).toEqual([0, 1, 2]);
  });
});

describe("aggregations", () => {
  it("gives the engine's shapes for terms, date_histogram, filter and metrics with nesting", () => {
    const aggregator = createAggregator(
      {
        states: {
          terms: { field: "job.state", size: 1 },
          aggs: { mean: { avg: { field: "job.execution_time.elapsed" } } },
        },
        hours: { date_histogram: { field: "@timestamp", fixed_interval: "1h" } },
        failed: {
          filter: { term: { "job.state": "FAILED" } },
          aggs: { n: { value_count: { field: "job.name" } } },
        },
        distinct: { cardinality: { field: "job.state" } },
      },
      0,
      65_535,
    );
    for (const doc of docs) aggregator.add(doc);
    expect(aggregator.result()).toEqual({
      states: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 1,
        buckets: [{ key: "DONE", doc_count: 2, mean: { value: 10 } }],
      },
      hours: {
        buckets: [
          {
            key_as_string: "2026-03-01T00:00:00.000Z",
            key: Date.parse("2026-03-01T00:00:00Z"),
            doc_count: 1,
          },
          {
            key_as_string: "2026-03-01T01:00:00.000Z",
            key: Date.parse("2026-03-01T01:00:00Z"),
            doc_count: 1,
          },
          {
            key_as_string: "2026-03-01T02:00:00.000Z",
            key: Date.parse("2026-03-01T02:00:00Z"),
            doc_count: 0,
          },
          {
            key_as_string: "2026-03-01T03:00:00.000Z",
            key: Date.parse("2026-03-01T03:00:00Z"),
            doc_count: 1,
          },
        ],
      },
      failed: { doc_count: 1, n: { value: 1 } },
      distinct: { value: 2 },
    });
  });
});
