import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../emulator/server.js";
import type { RunningEmulator } from "../emulator/server.js";
import { createServiceClient } from "../api/client.js";
import type { ServiceClient } from "../api/client.js";
import { pageThrough } from "../api/paging/pager.js";
import { pointInTime } from "../api/paging/point-in-time.js";
import { logsScroll } from "./logs.js";
import type { PagePart } from "../api/paging/page.js";
import { V3_HITS, v2HitArray } from "../api/hit-arrays.js";
import { hitToRow, hitsToRows } from "./source-spec.js";
import type { HitLike } from "./row-json.js";
import { rowJson } from "./row-json.js";
import { encodeLines } from "../formats/ndjson.js";
import type { RowJson } from "../core/contracts.js";
import { UniqueKeys } from "../decoding/json-keys.js";

const keys = new UniqueKeys();
const hit = (source: Record<string, unknown>): HitLike => ({ _id: 'a"1', _index: "jobs-x", _source: source });
const bytes = (value: unknown): Uint8Array => Buffer.from(JSON.stringify(value));
/** The text a RowJson stands for. */
const text = (json: RowJson | undefined): string | undefined =>
  json === undefined ? undefined : Buffer.concat([Buffer.from(json.head), json.tail]).toString("utf8");

describe("rowJson", () => {
  it("writes what JSON.stringify writes for the row", () => {
    for (const source of [
      {},
      { n: 1, s: 'é\u2028"q"', nested: { "1": 2, b: [null, true] } },
      { z: -1.5e300 },
    ]) {
      const made = hit(source);
      expect(text(rowJson(made, bytes(source), keys))).toBe(JSON.stringify(hitToRow(made)));
    }
  });

  it("declines where splicing could differ from serialising", () => {
    for (const source of [{ _id: "own" }, { a: 1, _index: "own" }, { a: 1, "7": "index key first" }]) {
      expect(rowJson(hit(source), bytes(source), keys)).toBeUndefined();
    }
    expect(rowJson(hit({ a: 1 }), undefined, keys)).toBeUndefined();
  });

  // Issue 29: a parsed hit's `_source` bytes were spliced as sent, so a key named twice reached the
  // NDJSON line twice (DuckDB refuses the file: "duplicate key") and a `\ud800` escape made DuckDB
  // and jq refuse it; JSON.parse's row (the last value, U+FFFD) is what is written instead.
  it("declines bytes that repeat a key at any depth or hold a lone surrogate escape", () => {
    const declined = [
      '{"a":1,"a":2}',
      '{"a":{"b":1,"c":{"d":[{"e":1,"e":1}]}}}',
      '{"a":{"b":1,"b":2}}',
      '{"a":1,"\\u0061":2}',
      '{"s":"\\ud800"}',
      '{"s":"x\\udc00y"}',
      '{"s":["\\ud83d"]}',
    ];
    for (const source of declined) {
      const parsed = JSON.parse(source) as Record<string, unknown>;
      expect(rowJson(hit(parsed), Buffer.from(source), keys), source).toBeUndefined();
    }
    const kept = ['{"a":{"a":1},"b":[{"a":1},{"a":2}]}', '{"s":"\\ud83d\\ude00","t":"\\\\ud800"}'];
    for (const source of kept) {
      const made = hit(JSON.parse(source) as Record<string, unknown>);
      expect(text(rowJson(made, Buffer.from(source), keys)), source).toBe(
        `{"_id":"a\\"1","_index":"jobs-x",${source.slice(1)}`,
      );
    }
  });
});

describe("rows from streamed pages of the emulator", () => {
  let emulator: RunningEmulator;
  let client: ServiceClient;
  beforeAll(async () => {
    emulator = await startEmulator({ seed: 5, density: 200 });
    client = createServiceClient({
      baseUrl: emulator.url,
      authUrl: emulator.url,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
    });
  });
  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  async function checkAll(pages: AsyncIterable<PagePart<HitLike>>): Promise<number> {
    let rows = 0;
    for await (const page of pages) {
      if (page.type === "end") continue;
      const batch = hitsToRows(page.hits, page.sources);
      expect(batch.json).toHaveLength(batch.rows.length);
      // Byte for byte what the record serialised today would be, and spliced for every record.
      batch.rows.forEach((row, index) => expect(text(batch.json?.[index])).toBe(JSON.stringify(row)));
      // And NDJSON from the spliced bytes is byte-identical to NDJSON serialised from the rows.
      expect(Buffer.compare(encodeLines(batch), encodeLines({ kind: "rows", rows: batch.rows }))).toBe(0);
      rows += batch.rows.length;
    }
    return rows;
  }

  const window = { start_time: "2026-03-01T00:00:00Z", end_time: "2026-03-01T03:00:00Z" };
  it("jobs over point in time and logs over scroll: each row's JSON is the service's bytes spliced", async () => {
    const jobs = pageThrough(
      client,
      pointInTime("/v3/jobs/query", {
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["*"],
        ...window,
        size: 250,
      }),
      V3_HITS,
    );
    expect(await checkAll(jobs)).toBeGreaterThan(500);
    const logs = pageThrough(
      client,
      logsScroll({ application: "atr", app_type: "ec2", domain: ["*"], ...window, size: 250 }),
      v2HitArray("logs"),
    );
    expect(await checkAll(logs)).toBeGreaterThan(500);
  });
});
