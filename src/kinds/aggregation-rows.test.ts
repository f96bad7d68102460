import { describe, expect, it } from "vitest";
import { aggregationColumns, aggregationRows } from "./aggregation-rows.js";

const aggs = {
  by_domain: {
    terms: { field: "atr.domain_name", size: 10 },
    aggs: {
      per_day: {
        date_histogram: { field: "@timestamp", fixed_interval: "1d" },
        aggs: { avg_elapsed: { avg: { field: "job.execution_time.elapsed" } } },
      },
    },
  },
  failed: { filter: { term: { "job.state": "FAILED" } } },
};

const response = {
  by_domain: {
    doc_count_error_upper_bound: 0,
    sum_other_doc_count: 0,
    buckets: [
      {
        key: "alpha",
        doc_count: 3,
        per_day: {
          buckets: [
            {
              key: Date.UTC(2026, 10, 20),
              key_as_string: "2026-11-20T00:00:00.000Z",
              doc_count: 2,
              avg_elapsed: { value: 1.5 },
            },
            {
              key: Date.UTC(2026, 10, 21),
              key_as_string: "2026-11-21T00:00:00.000Z",
              doc_count: 1,
              avg_elapsed: { value: null },
            },
          ],
        },
      },
      { key: "beta", doc_count: 0, per_day: { buckets: [] } },
    ],
  },
  failed: { doc_count: 4 },
};

describe("aggregationRows", () => {
  it("yields one row per bucket path with keys, doc_count and metrics", () => {
    const rows = aggregationRows(aggs, response, { slice_start: "s" });
    expect(rows).toEqual([
      {
        slice_start: "s",
        "failed.doc_count": 4,
        by_domain: "alpha",
        per_day: "2026-11-20T00:00:00.000Z",
        doc_count: 2,
        avg_elapsed: 1.5,
      },
      {
        slice_start: "s",
        "failed.doc_count": 4,
        by_domain: "alpha",
        per_day: "2026-11-21T00:00:00.000Z",
        doc_count: 1,
        avg_elapsed: null,
      },
    ]);
  });

  it("gives a single row for metric-only aggregations", () => {
    const rows = aggregationRows(
      { avg_cpu: { avg: { field: "system.cpu.total.pct" } } },
      { avg_cpu: { value: 0.25 } },
      {},
    );
    expect(rows).toEqual([{ avg_cpu: 0.25 }]);
  });

  it("derives the columns from the definition", () => {
    expect(aggregationColumns(aggs)).toEqual([
      { name: "by_domain", type: "string" },
      { name: "per_day", type: "timestamp" },
      { name: "avg_elapsed", type: "double" },
      { name: "failed.doc_count", type: "int64" },
      { name: "doc_count", type: "int64" },
    ]);
  });
});
