// Evaluates query-DSL filters against a generated `_source`: term, terms, range, exists, bool, match,
// match_phrase over dotted paths; `.keyword`/`.text` companions address the same value.
import type { DslQuery, RangeBounds } from "../api/wire/query-dsl.js";
import type { Source } from "./records.js";
import { resolveDateMath } from "../core/date-math.js";

export type Predicate = (source: Source) => boolean;

const COMPANIONS = [".keyword", ".text"];

/** Reads a dotted path from a nested source; falls back to the path without a companion suffix. */
export function compilePath(path: string): (source: Source) => unknown {
  const parts = path.split(".");
  const companion = COMPANIONS.find((suffix) => path.endsWith(suffix));
  const base = companion ? parts.slice(0, -1) : undefined;
  const walk = (keys: readonly string[], source: Source): unknown => {
    let current: unknown = source;
    for (const key of keys) {
      if (current === null || typeof current !== "object") return undefined;
      current = (current as Record<string, unknown>)[key];
    }
    return current;
  };
  return (source) => {
    const value = walk(parts, source);
    return value === undefined && base ? walk(base, source) : value;
  };
}

function sameValue(actual: unknown, expected: unknown): boolean {
  if (actual === expected) return true;
  if (actual === null || actual === undefined) return false;
  return String(actual) === String(expected);
}

function anyOf(value: unknown, test: (v: unknown) => boolean): boolean {
  return Array.isArray(value) ? value.some(test) : test(value);
}

function comparable(value: unknown): number | string | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string") {
    if (/^\d{4}-\d{2}-\d{2}/.test(value)) return Date.parse(value);
    const number = Number(value);
    return Number.isNaN(number) ? value : number;
  }
  return undefined;
}

function inRange(bounds: RangeBounds, now: number): (value: unknown) => boolean {
  const bound = (v: unknown) =>
    typeof v === "string" && v.startsWith("now") ? dateMath(v, now) : comparable(v);
  const gt = bound(bounds.gt);
  const gte = bound(bounds.gte);
  const lt = bound(bounds.lt);
  const lte = bound(bounds.lte);
  return (raw) => {
    const value = comparable(raw);
    if (value === undefined) return false;
    if (gt !== undefined && !(value > gt)) return false;
    if (gte !== undefined && !(value >= gte)) return false;
    if (lt !== undefined && !(value < lt)) return false;
    if (lte !== undefined && !(value <= lte)) return false;
    return true;
  };
}

/**
 * A `now…` bound (`now-1d`, `now+2h`, `now-1d/d`) in milliseconds, read by the one date-math grammar
 * the exporter's windows use; a bound it cannot read is now.
 */
function dateMath(expression: string, now: number): number {
  const bound = resolveDateMath(expression, new Date(now));
  return bound.ok ? bound.date.getTime() : now;
}

function words(value: unknown): string[] {
  return String(value ?? "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);
}

function toList(clauses: DslQuery | DslQuery[] | undefined): DslQuery[] {
  return clauses === undefined ? [] : Array.isArray(clauses) ? clauses : [clauses];
}

function single<T>(record: Record<string, T>): [string, T] {
  const entry = Object.entries(record)[0];
  if (!entry) throw new Error("query clause names no field");
  return entry;
}

/** A predicate on the values at a field (a record's array: any of them). */
function onField(field: string, test: (value: unknown) => boolean): Predicate {
  const read = compilePath(field);
  return (source) => anyOf(read(source), test);
}

export function compileQuery(query: DslQuery, now: number): Predicate {
  if ("term" in query) {
    const [field, spec] = single(query.term);
    const expected = typeof spec === "object" ? spec.value : spec;
    return onField(field, (v) => sameValue(v, expected));
  }
  if ("terms" in query) {
    const [field, values] = single(query.terms);
    return onField(field, (v) => values.some((expected) => sameValue(v, expected)));
  }
  if ("range" in query) {
    const [field, bounds] = single(query.range);
    return onField(field, inRange(bounds, now));
  }
  if ("exists" in query) {
    const read = compilePath(query.exists.field);
    return (source) => {
      const value = read(source);
      return value !== undefined && value !== null;
    };
  }
  if ("match" in query || "match_phrase" in query) {
    const isPhrase = "match_phrase" in query;
    const [field, spec] = single<unknown>("match" in query ? query.match : query.match_phrase);
    const options =
      typeof spec === "object" && spec !== null ? (spec as { query: unknown; operator?: string }) : undefined;
    const wanted = words(options === undefined ? spec : options.query);
    return onField(field, (value) => {
      const have = words(value);
      if (isPhrase) return ` ${have.join(" ")} `.includes(` ${wanted.join(" ")} `);
      return options?.operator === "and"
        ? wanted.every((w) => have.includes(w))
        : wanted.some((w) => have.includes(w));
    });
  }
  if ("bool" in query) {
    const must = [...toList(query.bool.must), ...toList(query.bool.filter)].map((q) => compileQuery(q, now));
    const mustNot = toList(query.bool.must_not).map((q) => compileQuery(q, now));
    const should = toList(query.bool.should).map((q) => compileQuery(q, now));
    const minimum = Number(query.bool.minimum_should_match ?? (must.length > 0 ? 0 : 1));
    return (source) => {
      if (!must.every((p) => p(source))) return false;
      if (mustNot.some((p) => p(source))) return false;
      if (should.length === 0 || minimum <= 0) return true;
      let matched = 0;
      for (const p of should) if (p(source) && ++matched >= minimum) return true;
      return false;
    };
  }
  return () => true;
}

/** All filters must hold; undefined when there are none (the fast path). */
export function compileFilters(filters: readonly DslQuery[] | undefined, now: number): Predicate | undefined {
  if (!filters || filters.length === 0) return undefined;
  const predicates = filters.map((q) => compileQuery(q, now));
  return (source) => predicates.every((p) => p(source));
}
