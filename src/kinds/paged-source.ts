// The paged source: reads one or more paged queries of a slice in turn (v2 kinds scroll one per
// app_type) and yields each batch of hits as it streams in, in the shape the slice's sinks take. When
// every query reported its total (on its first page's end), their sum is the slice's expected count.
import type { PagePart } from "../api/paging/page.js";
import type { RecordBatch, RecordId, RowJson, SliceContext, Source } from "../core/contracts.js";
import type { RecordRequest } from "../core/hit-reader.js";
import { rowsCarryJson } from "../core/hit-reader.js";
import type { TakenRecord } from "../core/record-batch.js";
import { UniqueKeys } from "../decoding/json-keys.js";
import { EtlError } from "../errors.js";
import { hitsToRows } from "./source-spec.js";
import { rowJson } from "./row-json.js";
import type { HitLike, PagedHit } from "./row-json.js";

type HitPart = PagePart<HitLike>;

/**
 * A source over the paged queries `open` starts for a slice, read one after the other.
 * @example createPagedSource(function* (ctx) { yield pageThrough(client, pointInTime("/v3/jobs/query", body(ctx.slice)), V3_HITS, ctx); })
 */
export function createPagedSource(open: (ctx: SliceContext) => Iterable<AsyncIterable<HitPart>>): Source {
  return async function* (ctx): AsyncGenerator<RecordBatch> {
    let expected: number | undefined = 0;
    for (const pages of open(ctx)) {
      let total: number | undefined;
      for await (const part of pages) {
        if (part.type === "hits") {
          yield* hitsToBatches(part.hits, part.sources, ctx.records);
          continue;
        }
        if (part.pageNumber === 1) total = part.total;
        ctx.log.debug({ page: part.pageNumber, hits: part.count }, "Page received.");
      }
      expected = expected === undefined || total === undefined ? undefined : expected + total;
    }
    if (expected !== undefined) ctx.stats.expected = expected;
  };
}

/**
 * A page's hits as the batches the slice's sinks take (SliceContext.records): parsed hits become rows,
 * hits a reader took from their bytes become lines or columns. A batch holds one shape, so a page
 * where the reader declined some hits (parsed instead) is handed on as consecutive batches, in order.
 * @example
 * for (const batch of hitsToBatches(part.hits, part.sources, ctx.records)) yield batch;
 */
export function hitsToBatches(
  hits: readonly PagedHit[],
  sources: readonly (Uint8Array | undefined)[],
  request: RecordRequest | undefined,
): RecordBatch[] {
  const json = rowsCarryJson(request);
  if (request?.reader === undefined || hits.length === 0)
    return [hitsToRows(hits as HitLike[], sources, json)];
  const batches: RecordBatch[] = [];
  let from = 0;
  while (from < hits.length) {
    const taken = (hits[from] as PagedHit)._source === undefined;
    let to = from + 1;
    while (to < hits.length && ((hits[to] as PagedHit)._source === undefined) === taken) to++;
    const whole = from === 0 && to === hits.length;
    const run = whole ? hits : hits.slice(from, to);
    const runSources = whole ? sources : sources.slice(from, to);
    batches.push(
      !taken
        ? hitsToRows(run as HitLike[], runSources, json)
        : request.shape === "lines"
          ? linesOf(run, runSources)
          : columnsOf(run),
    );
    from = to;
  }
  return batches;
}

/** Hits a lines reader took: their identity and `_source` bytes, which it hands on only when they splice. */
function linesOf(hits: readonly PagedHit[], sources: readonly (Uint8Array | undefined)[]): RecordBatch {
  const keys = new UniqueKeys();
  const lines = new Array<RowJson>(hits.length);
  for (let index = 0; index < hits.length; index++) {
    const line = rowJson(hits[index] as PagedHit, sources[index], keys);
    // The reader declines whatever would not splice; a record without its JSON would be written short.
    if (line === undefined) throw new EtlError("INTERNAL", "a hit taken from its bytes has no JSON to write");
    lines[index] = line;
  }
  return { kind: "lines", ids: hits as readonly RecordId[], lines };
}

/** Hits a columns reader took: each one says where its values are. */
function columnsOf(hits: readonly PagedHit[]): RecordBatch {
  const records = new Array<TakenRecord>(hits.length);
  for (let index = 0; index < hits.length; index++) {
    const hit = hits[index] as PagedHit;
    if (!isTakenRecord(hit))
      throw new EtlError("INTERNAL", "a hit taken from its bytes has no column values");
    records[index] = hit;
  }
  return { kind: "columns", records };
}

const isTakenRecord = (hit: PagedHit): hit is PagedHit & TakenRecord => "chunk" in hit && "at" in hit;
