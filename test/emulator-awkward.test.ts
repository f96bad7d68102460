// The emulator's awkward data: the texts the wire carries (exact digits, escapes, lone surrogates,
// repeated keys in `_source` and in the hit) mean what the records say, the mappings list the fields
// with their per-app-type conflicts, and the default data is unchanged.
import { afterAll, describe, expect, it } from "vitest";
import { parseAwkward, resolveAwkward } from "../src/emulator/awkward-data.js";
import { jsonText, RawJson } from "../src/emulator/raw-json.js";
import { startEmulator } from "../src/emulator/server.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import { fetchToken, post } from "./emulator-http.js";

const WINDOW = { start_time: "2026-03-10T00:00:00Z", end_time: "2026-03-10T06:00:00Z" };
const JOBS = { application: "atr", app_type: ["ec2"], domain: ["*"], size: 500, ...WINDOW };
const started: RunningEmulator[] = [];
afterAll(async () => {
  for (const emulator of started) await emulator.close();
});

async function start(awkward?: boolean): Promise<{ emulator: RunningEmulator; token: string }> {
  const emulator = await startEmulator({ seed: 3, density: 20, awkward });
  started.push(emulator);
  return { emulator, token: await fetchToken(emulator) };
}

/** A record as JSON.parse reads its wire text: raw values by their meaning, exact integers rounded to numbers. */
function asParsed(value: unknown): unknown {
  if (value instanceof RawJson) return asParsed(value.value);
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(asParsed);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, asParsed(inner)]));
  return value;
}

describe("awkward data", () => {
  it("writes exact int64 digits, escaped and lone-surrogate strings, and repeated keys whose last one is the record", async () => {
    const { emulator, token } = await start(true);
    const answer = await post(emulator, "/v3/jobs/query", JOBS, token);
    expect(answer.status).toBe(200);
    for (const digits of ["9223372036854775807", "-9223372036854775808", "9007199254740993"])
      expect(answer.text).toMatch(new RegExp(`"count":${digits}[,}]`));
    expect(answer.text).toContain(String.raw`"lone \ud800 high"`);
    expect(answer.text).toContain(String.raw`"@timest\u0061mp":"2001-02-03T04:05:06.000Z"`);
    expect(answer.text).toMatch(/"_source":\{"decoy":true\}.*"_source":\{"@timestamp"/);
    expect(answer.text).toContain(String.raw`"_sourc\u0065"`);

    // JSON.parse's meaning of every hit is the emulator's own record (the last of each repeated key).
    const expected = [];
    for await (const hit of emulator.expectedHits("jobs", JOBS)) expected.push(hit);
    const hits = (answer.body["data"] as { hits: Record<string, unknown>[] }).hits;
    expect(hits.map((hit) => [hit["_id"], hit["_index"]])).toEqual(
      expected.map((hit) => [hit._id, hit._index]),
    );
    expect(hits.map((hit) => (hit["_source"] as { "@timestamp": string })["@timestamp"])).toEqual(
      expected.map((hit) => hit._source["@timestamp"]),
    );
    expect(hits.map((hit) => hit["_source"])).toEqual(expected.map((hit) => asParsed(hit._source)));
  });

  it("lists the awkward fields in the mappings, with types that differ between app types", async () => {
    const { emulator, token } = await start(true);
    const typeOf = async (appType: string, name: string) => {
      const answer = await post(
        emulator,
        "/v3/logs/mappings",
        { application: "atr", app_type: appType },
        token,
      );
      const fields = (answer.body["data"] as { fields: { name: string; type: string }[] }).fields;
      return fields.find((field) => field.name === name)?.type;
    };
    expect(await typeOf("ec2", "odd.code")).toBe("long");
    expect(await typeOf("kubernetes", "odd.code")).toBe("keyword");
    expect(await typeOf("ec2", "timestamp")).toBe("date");
    expect(await typeOf("kubernetes", "timestamp")).toBe("alias");
    expect(await typeOf("ec2", "odd.count")).toBe("long");
  });

  it("leaves the default data as it was", async () => {
    const { emulator, token } = await start();
    const answer = await post(emulator, "/v3/jobs/query", JOBS, token);
    expect(answer.text).not.toContain('"odd"');
    expect(answer.text).not.toContain("decoy");
    const mappings = await post(emulator, "/v3/jobs/mappings", {}, token);
    expect(mappings.text).not.toContain("odd.");
  });

  it("parses the command's --awkward value", () => {
    expect(parseAwkward("all")).toEqual(resolveAwkward(true));
    expect(parseAwkward("int64, unicode")).toMatchObject({ int64: true, unicode: true, dates: false });
    expect(parseAwkward("int65")).toMatch(/"int65" is not one of all, int64/);
  });

  it("jsonText writes what JSON.stringify writes, raw values as their text", () => {
    const value = { a: [1, "x", null, { b: true }], c: "\ud800", d: undefined };
    expect(jsonText(value)).toBe(JSON.stringify(value));
    expect(jsonText({ n: new RawJson("9007199254740993", 9007199254740993n) })).toBe(
      '{"n":9007199254740993}',
    );
  });
});
