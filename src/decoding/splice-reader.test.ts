import { describe, expect, it } from "vitest";
import type { RecordBatch } from "../core/contracts.js";
import { encodeLines } from "../formats/ndjson.js";
import { hitToRow } from "../kinds/source-spec.js";
import { hitsToBatches } from "../kinds/paged-source.js";
import type { RecordRequest } from "../core/hit-reader.js";
import type { HitLike, PagedHit } from "../kinds/row-json.js";
import { withReader } from "./hit-array.js";
import { V3_HITS, v2HitArray } from "../api/hit-arrays.js";
import type { HitArray } from "./hit-array.js";
import { decodeHits } from "./hit-stream.js";
import type { HitBatch } from "./hit-stream.js";
import { createSpliceReader } from "./splice-reader.js";

/** A response body of `hits` (texts as the service would send them) under `data.<array>`, in chunks of `cut` bytes. */
function body(array: string, hits: readonly string[], cut: number): Uint8Array[] {
  const bytes = Buffer.from(`{"data":{"${array}":[${hits.join(",")}],"total":${hits.length}}}`);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += cut) chunks.push(bytes.subarray(at, at + cut));
  return chunks;
}

async function* stream(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

/** The NDJSON an output writes for these hits, read through `hits` (with or without a reader). */
async function ndjson(
  chunks: readonly Uint8Array[],
  hits: HitArray,
): Promise<{ text: string; taken: number }> {
  const batches: RecordBatch[] = [];
  const request: RecordRequest =
    hits.reader === undefined ? { shape: "rows", json: true } : { shape: "lines", reader: hits.reader };
  let taken = 0;
  const decoded = decodeHits(stream(chunks), hits, "/v3/jobs/query", 3);
  for (;;) {
    const next = await decoded.next();
    if (next.done === true) break;
    const batch: HitBatch = next.value;
    taken += batch.hits.filter((hit) => (hit as PagedHit)._source === undefined).length;
    batches.push(...hitsToBatches(batch.hits as PagedHit[], batch.sources, request));
  }
  return { text: batches.map((batch) => encodeLines(batch).toString("utf8")).join(""), taken };
}

const v3 = (id: string, source: string, extra = ""): string =>
  `{"_index":"jobs-atr-ec2-2026.03.01","_id":${JSON.stringify(id)},"_score":null,"_source":${source},"sort":[1,"${id}"]${extra}}`;

const HITS = [
  v3("a", '{"job":{"id":"a","state":"DONE","elapsed":3167.3},"@timestamp":"2026-03-01T00:00:00.000Z"}'),
  v3("b", '{"name":"caf\\u00e9 \\"quoted\\" \u00e9\u{1f600}","n":-0,"big":1e400,"list":[1,{"x":null}]}'),
  // Empty _source: the row is its identity alone.
  v3("c", "{}"),
  // Not compact: parsed, then serialised.
  v3("d", '{ "spaced" : true }'),
  // Its own _id and _index: the row's replace them, which a splice cannot do.
  v3("e", '{"_id":"other","_index":"elsewhere","k":1}'),
  // An array-index key: JSON.stringify writes it first.
  v3("f", '{"b":1,"7":2}'),
  // An escaped key and duplicate keys: declined, and written as JSON.parse reads them (issue 29).
  v3("g", '{"k\\u0065y":1,"d":1,"d":2}'),
  v3("h", '{"x":"\\ud800 lone"}'),
];

describe("the splice reader", () => {
  it("gives, hit for hit, the NDJSON the parsing path gives, and takes only hits it can splice", async () => {
    for (const cut of [1, 7, 64, 100_000]) {
      const chunks = body("hits", HITS, cut);
      const parsed = await ndjson(chunks, V3_HITS);
      const read = await ndjson(chunks, withReader(V3_HITS, createSpliceReader()));
      expect(read.text).toBe(parsed.text);
      // a, b and c splice; d is not compact, e carries identity keys, f an array-index key, g repeats
      // a key and h holds a lone surrogate.
      expect(read.taken).toBe(3);
      expect(parsed.taken).toBe(0);
    }
  });

  it("reads each hit once when the page is whole in its window, declined ones included", async () => {
    const splice = createSpliceReader();
    let reads = 0;
    const counting = withReader(V3_HITS, {
      read: (...args) => {
        reads += 1;
        return splice.read(...args);
      },
    });
    const read = await ndjson(body("hits", HITS, 100_000), counting);
    expect(read.taken).toBe(3);
    // d to h are declined where they start and then parsed, not offered to the reader again.
    expect(reads).toBe(HITS.length);
  });

  // Issue 29: a key given twice in `_source` (once written with escapes) went to the NDJSON line twice,
  // and a `\ud800` escape as sent: DuckDB and jq refuse such a file. Both readers now write one key,
  // the last, and U+FFFD, as JSON.parse reads the hit.
  it("writes a repeated key once (the last) and a lone surrogate as U+FFFD, on either path", async () => {
    for (const hits of [V3_HITS, withReader(V3_HITS, createSpliceReader())]) {
      const lines = (await ndjson(body("hits", HITS, 50), hits)).text.trimEnd().split("\n");
      expect(lines[6]).toBe('{"_id":"g","_index":"jobs-atr-ec2-2026.03.01","key":1,"d":2}');
      expect(lines[7]).toBe('{"_id":"h","_index":"jobs-atr-ec2-2026.03.01","x":"\ufffd lone"}');
    }
  });

  it("writes a hit sent as JSON.stringify writes it exactly as JSON.stringify writes its parsed row", async () => {
    // a and c are spliced; d, e and f are serialised from their parsed rows. (b keeps its escapes and
    // numbers as sent, on either path: the test above.)
    const plain = [0, 2, 3, 4, 5];
    const read = await ndjson(body("hits", HITS, 50), withReader(V3_HITS, createSpliceReader()));
    const lines = read.text.trimEnd().split("\n");
    for (const index of plain) {
      const row = hitToRow(JSON.parse(HITS[index] ?? "") as HitLike);
      expect(lines[index]).toBe(JSON.stringify(row));
    }
  });

  it("declines v2 hits of the wrong shape and broken hits, which the parsing path then judges", async () => {
    const logs = v2HitArray("logs");
    const good = '{"_index":"logs-atr","_id":"1","_score":1.5,"_source":{"message":"ok"}}';
    const chunks = body("logs", [good], 10);
    const read = await ndjson(chunks, withReader(logs, createSpliceReader()));
    expect(read.text).toBe(`${JSON.stringify({ _id: "1", _index: "logs-atr", message: "ok" })}\n`);
    expect(read.taken).toBe(1);

    const noId = '{"_index":"logs-atr","_source":{"message":"ok"}}';
    await expect(ndjson(body("logs", [noId], 10), withReader(logs, createSpliceReader()))).rejects.toThrow(
      /does not follow the spec/,
    );
    const notJson = '{"_index":"logs-atr","_id":"1","_source":{"message":tru}}';
    await expect(ndjson(body("logs", [notJson], 10), withReader(logs, createSpliceReader()))).rejects.toThrow(
      /not JSON/,
    );
  });
});
