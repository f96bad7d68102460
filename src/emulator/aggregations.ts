// Computes aggregations over the records of a plan, with the engine's result shapes: terms and
// date_histogram buckets (`key`, `doc_count`, `key_as_string`, error bounds), filter `doc_count`,
// metric `value`, and nested sub-aggregations per bucket.
import type { Aggregation, Aggregations } from "../api/wire/aggs.js";
import { compilePath, compileQuery } from "./query-dsl.js";
import type { Predicate } from "./query-dsl.js";
import type { Source } from "./records.js";
import { nextIntervalKey, intervalKey } from "./intervals.js";

interface Accumulator {
  add(source: Source): void;
  result(): unknown;
}

type Factory = () => Accumulator;

/** Too many buckets in one response (a 1ms histogram over hours): the engine answers 400. */
export class TooManyBucketsError extends Error {
  constructor(readonly limit: number) {
    super(
      `Trying to create too many buckets. Must be less than or equal to: [${limit}]. Use a wider interval, a smaller terms size or a shorter window`,
    );
  }
}

/** Counts the buckets a response emits, across every (nested) aggregation; throws past the limit. */
type BucketBudget = (count: number) => void;

function compileAll(aggs: Aggregations | undefined, now: number, budget: BucketBudget): [string, Factory][] {
  return Object.entries(aggs ?? {}).map(([name, agg]) => [name, compileAggregation(agg, now, budget)]);
}

/** The named aggregations of one level, fed together; the result names each one's. */
interface Group extends Accumulator {
  result(): Record<string, unknown>;
}

function group(factories: [string, Factory][]): Group {
  const accs = factories.map(([name, create]) => [name, create()] as const);
  return {
    add(source) {
      for (const [, acc] of accs) acc.add(source);
    },
    result: () => Object.fromEntries(accs.map(([name, acc]) => [name, acc.result()])),
  };
}

function numeric(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value)) return Date.parse(value);
  return undefined;
}

function metric(kind: string, field: string): Factory {
  const read = compilePath(field);
  return () => {
    let count = 0;
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    const distinct = new Set<string>();
    return {
      add(source) {
        const value = read(source);
        if (value === undefined || value === null) return;
        count++;
        if (kind === "cardinality") distinct.add(String(value));
        const n = numeric(value);
        if (n === undefined) return;
        sum += n;
        if (n < min) min = n;
        if (n > max) max = n;
      },
      result() {
        if (kind === "value_count") return { value: count };
        if (kind === "cardinality") return { value: distinct.size };
        if (kind === "sum") return { value: sum };
        if (count === 0) return { value: null };
        if (kind === "avg") return { value: sum / count };
        return { value: kind === "min" ? min : max };
      },
    };
  };
}

function bucketsOf(factories: [string, Factory][]) {
  const buckets = new Map<string | number, { key: string | number; count: number; subs: Group }>();
  const add = (key: string | number, source: Source) => {
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = { key, count: 0, subs: group(factories) }));
    bucket.count++;
    bucket.subs.add(source);
  };
  return { buckets, add };
}

function compileAggregation(agg: Aggregation, now: number, budget: BucketBudget): Factory {
  const subs = compileAll(agg.aggs ?? agg.aggregations, now, budget);
  if (agg.terms) {
    const { field, size = 10 } = agg.terms;
    const read = compilePath(field);
    return () => {
      const { buckets, add } = bucketsOf(subs);
      return {
        add(source) {
          const value = read(source);
          for (const v of Array.isArray(value) ? value : [value]) {
            if (v === undefined || v === null || typeof v === "object") continue;
            add(typeof v === "number" ? v : String(v), source);
          }
        },
        result() {
          const sorted = [...buckets.values()].sort(
            (a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
          );
          const shown = sorted.slice(0, size);
          budget(shown.length);
          const other = sorted.slice(size).reduce((sum, b) => sum + b.count, 0);
          return {
            doc_count_error_upper_bound: 0,
            sum_other_doc_count: other,
            buckets: shown.map((b) => ({ key: b.key, doc_count: b.count, ...b.subs.result() })),
          };
        },
      };
    };
  }
  if (agg.date_histogram) {
    const spec = agg.date_histogram;
    const interval = spec.fixed_interval ?? spec.calendar_interval ?? spec.interval ?? "1d";
    const calendar = spec.fixed_interval === undefined && spec.calendar_interval !== undefined;
    const read = compilePath(spec.field);
    const minDocCount = spec.min_doc_count ?? 0;
    return () => {
      const { buckets, add } = bucketsOf(subs);
      return {
        add(source) {
          const ms = numeric(read(source));
          if (ms !== undefined) add(intervalKey(ms, interval, calendar), source);
        },
        result() {
          const keys = [...buckets.keys()].map(Number).sort((a, b) => a - b);
          const out: unknown[] = [];
          if (keys.length === 0) return { buckets: out };
          const last = keys[keys.length - 1] as number;
          for (let key = keys[0] as number; key <= last; key = nextIntervalKey(key, interval, calendar)) {
            const bucket = buckets.get(key);
            if (!bucket && minDocCount > 0) continue;
            // Counted before it is built: the empty buckets between keys are what explodes.
            budget(1);
            const count = bucket?.count ?? 0;
            const nested = (bucket?.subs ?? group(subs)).result();
            out.push({ key_as_string: new Date(key).toISOString(), key, doc_count: count, ...nested });
          }
          return { buckets: out };
        },
      };
    };
  }
  if (agg.filter) {
    const predicate: Predicate = compileQuery(agg.filter, now);
    return () => {
      let count = 0;
      const inner = group(subs);
      return {
        add(source) {
          if (!predicate(source)) return;
          count++;
          inner.add(source);
        },
        result: () => ({ doc_count: count, ...inner.result() }),
      };
    };
  }
  for (const kind of ["avg", "min", "max", "sum", "value_count", "cardinality"] as const) {
    const spec = agg[kind];
    if (spec) return metric(kind, spec.field);
  }
  return () => ({ add() {}, result: () => ({}) });
}

/** Accumulates a whole request's `aggs` over a stream of sources, within `maxBuckets` (`search.max_buckets`). */
export function createAggregator(aggs: Aggregations, now: number, maxBuckets: number): Accumulator {
  let used = 0;
  const budget: BucketBudget = (count) => {
    used += count;
    if (used > maxBuckets) throw new TooManyBucketsError(maxBuckets);
  };
  return group(compileAll(aggs, now, budget));
}
